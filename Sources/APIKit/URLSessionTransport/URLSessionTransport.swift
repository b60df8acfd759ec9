/// The URLSession transport: sends over a `URLSession` that APIKit creates and delegates for,
/// so that it reports upload and download progress, delivers a streamed body chunk by chunk and
/// downloads to a file; ``shared`` is the transport of every ``Session`` made without one.
///
/// `Session()` sends through ``shared``, so a `progress:` closure is called as the transfer
/// runs, with nothing to choose:
///
/// ```swift
/// let echo = try await UploadRequest(file: file).response(using: Session(), progress: { progress in
///     print(progress.bytesSent, "of", progress.expectedBytesToSend ?? -1)
/// })
/// ```
///
/// Make a transport of your own for another `URLSessionConfiguration` (timeouts, headers,
/// cookies, connections per host) or spool directory:
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpMaximumConnectionsPerHost = 16
/// let api = Session(transport: URLSessionTransport(configuration: configuration))
/// ```
///
/// A request without a `progress:` closure whose body needs no framing of APIKit's is a data
/// task with a completion handler, exactly as a `URLSession` passed as a transport sends it
/// (see <doc:ChoosingATransport>); a request with progress, a stream,
/// a download or a body from disk goes through the session's delegate. Progress, streamed
/// events and completions are called on the transport's own serial delegate queue, the progress
/// of a transfer always before its completion. Every body APIKit builds is sent with
/// `Content-Length`; a multipart body with files is first written to a file in `spoolDirectory`
/// on Linux (corelibs `URLSession` would send it chunked). Releasing a transport of your own
/// lets the transfers in flight finish, then invalidates its `URLSession`.
///
/// The spec's ``Request/perform(session:completionQueue:completion:)`` sends through a
/// `URLSession` of the caller's instead, one APIKit does not own (see <doc:ChoosingATransport>).
public final class URLSessionTransport: Transport {
    /// The session it sends through; internal so that a test can read its configuration.
    let session: URLSession
    private let router: URLSessionTaskRouter
    private let spoolDirectory: URL

    /// The transport of every ``Session`` made without one (`Session()`):
    /// a `URLSession` with the `.default` configuration, and the temporary directory to spool
    /// to.
    ///
    /// Like `URLSession.shared`, it lives as long as the process and shares the `.default`
    /// configuration's cookie, credential and cache storage.
    ///
    /// ```swift
    /// let session = Session(transport: URLSessionTransport.shared)   // the same as Session()
    /// ```
    public static let shared = URLSessionTransport()

    /// Creates a transport with its own `URLSession`.
    ///
    /// - Parameters:
    ///   - configuration: The configuration of the `URLSession`; `.default` by default. One
    ///     without a cookie storage (`httpCookieStorage = nil`) is used with the accept policy
    ///     `.never`, which keeps the same cookies (none) and spares corelibs Foundation its
    ///     cookie parse of every response header line on Linux; yours is not changed.
    ///   - spoolDirectory: Where corelibs Foundation (Linux) writes a multipart body with files
    ///     before uploading it with its `Content-Length` (see ``RequestBody``); the temporary
    ///     directory by default. Each file is removed when its transfer ends, however it ends.
    public init(configuration: URLSessionConfiguration = .default, spoolDirectory: URL? = nil) {
        self.spoolDirectory = spoolDirectory ?? FileManager.default.temporaryDirectory
        let router = URLSessionTaskRouter()
        let queue = OperationQueue()
        queue.name = "APIKit.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        self.session = URLSession(
            configuration: configuration.acceptingCookiesOnlyWithStorage, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`, reporting its progress when `progress` is given; a body of known length
    /// goes out with its `Content-Length` (see ``RequestBody``).
    ///
    /// Without `progress`, a request whose body needs no framing of APIKit's is a data task with
    /// a completion handler, as a `URLSession` transport sends it; with `progress`, or with a
    /// body from disk, the task goes through the delegate, whose byte counts report the
    /// progress and let a cancellation wait for a moment when corelibs cannot crash on it.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - progress: Receives the progress on the delegate queue, never after `completion`.
    ///   - completion: Receives the response and body, or the error; on the delegate queue.
    /// - Returns: The transfer, to cancel it.
    public func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        guard progress != nil || URLSessionUpload.needsFraming(request) || Self.storesThroughDelegate(request, session)
        else {
            return session.sendDataTask(request, completion: completion)
        }
        return start(request, progress: progress, completion: completion)
    }

    /// Whether `request` must go through the delegate for its response to stay out of the
    /// session's `URLCache`: on Apple platforms, a task with a completion handler stores its
    /// response without asking the delegate, so a request an ``HTTPCache`` passed on goes through
    /// the delegate, which declines (``URLSessionTaskRouter/declinesCaching(_:)``). corelibs
    /// Foundation (Linux) stores nothing in a `URLCache` for either kind of task, and keeps the
    /// completion-handler task.
    private static func storesThroughDelegate(_ request: URLRequest, _ session: URLSession) -> Bool {
        #if canImport(Darwin)
            URLSessionTaskRouter.declinesCaching(request) && session.configuration.urlCache != nil
        #else
            false
        #endif
    }

    /// Sends `request` and reports the response, then each chunk of the body as the data
    /// delegate receives it, then the end; a body of known length goes out with its
    /// `Content-Length` (see ``RequestBody``).
    ///
    /// ```swift
    /// let transport = URLSessionTransport()
    /// let task = transport.stream(URLRequest(url: url)) { event in print(event) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - onEvent: Receives the events on the delegate queue, as
    ///     ``Transport/stream(_:onEvent:)`` describes.
    /// - Returns: The transfer, to cancel it.
    public func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        let end: @Sendable (Result<TransportResponse, any Error>) -> Void = { result in
            switch result {
            case .success: onEvent(.finished)
            case .failure(let error): onEvent(.failed(error))
            }
        }
        return URLSessionUpload.start(
            request, spoolDirectory: spoolDirectory, callbackQueue: session.delegateQueue, completion: end
        ) {
            [session, router] request, file, completion in
            let task = file.map { session.uploadTask(with: request, fromFile: $0) } ?? session.dataTask(with: request)
            router.registerStream(task, onEvent: onEvent, completion: completion)
            return task
        }
    }

    /// Sends `request` as a `URLSessionDownloadTask` and moves the body to `fileURL` once it
    /// has arrived, reporting the bytes written as they are when `progress` is given.
    ///
    /// On Linux the task has a completion handler, with `progress` or without: corelibs reports
    /// progress only to a delegate's download task, and for it opens, seeks and closes the file
    /// for each chunk and queues a `didWriteData` call, which makes a large download markedly
    /// slower (`Benchmarks/README.md`, "Download 1 GB"). With `progress`, the length of the file corelibs writes is looked at every 10 ms
    /// instead, and reported each time it has grown; the last step, the whole body, comes just
    /// before `completion`. On Apple platforms, with `progress` the session's delegate hears of
    /// every chunk.
    ///
    /// On Linux the download task writes each chunk to its file inside libcurl's callback, so a
    /// disk slower than the network holds the network back and memory stays flat — which the
    /// data delegate behind ``stream(_:onEvent:)`` cannot do there. corelibs writes to the
    /// system's temporary directory: the body is moved to `fileURL` by a rename, or copied when
    /// `fileURL` is on another file system; the partial file of a transfer that fails or is
    /// cancelled is removed — all but one case: a transfer that fails at once (a refused
    /// connection) while the calling thread is held up can leave corelibs' empty `<UUID>.tmp`
    /// there, as corelibs' own `URLSession` does for every failed download. A request whose body APIKit frames itself (a file, a multipart
    /// body with files) goes through the default, stream-based
    /// ``Transport/download(_:to:progress:completion:)`` instead, as a download task cannot
    /// send such a body with its `Content-Length`.
    ///
    /// ```swift
    /// let task = URLSessionTransport().download(URLRequest(url: url), to: file, progress: { _ in }) { result in
    ///     print(result.map { ($0 as? HTTPURLResponse)?.statusCode })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - fileURL: Where to write the body.
    ///   - progress: Receives the bytes written so far on the delegate queue, never after
    ///     `completion`; on Linux every 10 ms while the file grows, and the whole body last.
    ///   - completion: Receives the response once the body is at `fileURL`, or the error; on
    ///     the delegate queue.
    /// - Returns: The transfer, to cancel it.
    public func download(
        _ request: URLRequest,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask {
        guard !URLSessionUpload.needsFraming(request) else {
            return StreamedDownload.start(request, on: self, to: fileURL, progress: progress, completion: completion)
        }
        let downloads = router.downloads
        let task: URLSessionDownloadTask
        let reportsThroughDelegate = Self.reportsDownloadsThroughDelegate && progress != nil
        if reportsThroughDelegate {
            task = session.downloadTask(with: request)
        } else {
            // The handler needs its task, which exists only once the handler is given: set
            // before `resume()`, read after the task has ended.
            let made = Locked<URLSessionDownloadTask?>(nil)
            task = session.downloadTask(with: request) { location, _, error in
                guard let task = made.withLock({ $0 }) else { return }
                downloads.didEnd(task, location: location, error: error)
            }
            made.withLock { $0 = task }
        }
        downloads.register(task, to: fileURL, progress: progress, completion: completion)
        task.resume()
        downloads.didResume(task)
        if progress != nil, !reportsThroughDelegate {
            downloads.watch(task, reportingOn: session.delegateQueue)
        }
        return URLSessionDownloadHandle(task: task, downloads: downloads)
    }

    /// Whether a download with progress uses a delegate's task: on Apple platforms. On Linux a
    /// completion handler's task, whose file is watched (``URLSessionDownloads/watch(_:reportingOn:)``).
    #if canImport(FoundationNetworking)
        private static let reportsDownloadsThroughDelegate = false
    #else
        private static let reportsDownloadsThroughDelegate = true
    #endif

    private func start(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let expected = request.knownBodyLength
        return URLSessionUpload.start(
            request, spoolDirectory: spoolDirectory, callbackQueue: session.delegateQueue, completion: completion
        ) {
            [session, router] request, file, completion in
            let task = file.map { session.uploadTask(with: request, fromFile: $0) } ?? session.dataTask(with: request)
            router.register(task, expectedBytesToSend: expected, progress: progress, completion: completion)
            return task
        }
    }
}

extension URLSessionTransport: CustomReflectable {
    /// What `dump(_:)` and a failed test expectation show: the spool directory, and not the
    /// session's or the delegate's state.
    ///
    /// That state changes on other threads while a transfer runs (``shared`` sends for every
    /// `Session()` in the process), and a `Mirror` reads stored properties without their locks:
    /// reflecting it then is a data race (a failed test expectation that showed
    /// `Session().transport` once crashed swift-testing's reflection of it).
    public var customMirror: Mirror {
        Mirror(self, children: ["spoolDirectory": spoolDirectory], displayStyle: .class)
    }
}

/// A download task of a ``URLSessionTransport``, cancelled through ``URLSessionDownloads`` so
/// that nothing reaches the download's file once the cancellation has returned.
private struct URLSessionDownloadHandle: TransportTask {
    let task: URLSessionDownloadTask
    let downloads: URLSessionDownloads

    func cancel() {
        downloads.cancel(task)
    }
}
