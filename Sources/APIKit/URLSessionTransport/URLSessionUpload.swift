/// Starts a `URLSession` task for a request so that its body goes out with `Content-Length`,
/// never chunked: the one place both URLSession transports decide how a body is framed.
///
/// - no body, or a body in memory (`httpBody`): a data task, which URLSession sends with
///   `Content-Length`;
/// - a body that is one whole file (``FileBody``): an upload task from that file, which
///   URLSession sends with `Content-Length` (its size) on every platform;
/// - a body of several segments with files (a multipart upload from disk): corelibs
///   `URLSession` (Linux, Windows) sends every `httpBodyStream` chunked, even with a declared
///   length, so the body is first written to a temporary file and uploaded from it
///   (``SpooledUpload``); Apple's `URLSession` sends a stream with the `Content-Length` it is
///   given, so there the stream goes out as it is, with its length;
/// - a body stream APIKit did not make, whose length is unknown: a data task, which streams
///   it chunked.
enum URLSessionUpload {
    /// Makes, but does not resume, a task for `request`, with its body from `file` when given,
    /// that calls `completion` once when it ends.
    typealias MakeTask =
        @Sendable (
            _ request: URLRequest,
            _ file: URL?,
            _ completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> URLSessionTask

    /// Whether `request`'s body is one APIKit built as a stream (a file, a multipart body with
    /// files), which ``start(_:spoolDirectory:callbackQueue:completion:makeTask:)`` frames; any other request
    /// goes out as a data task as it is.
    static func needsFraming(_ request: URLRequest) -> Bool {
        request.httpBodyStream is RequestBodyStream
    }

    /// Starts `request`; see the type's description for how its body is sent.
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - spoolDirectory: Where a body that must be written to a file first is written.
    ///   - callbackQueue: The session's delegate queue, where a spooled upload that fails
    ///     before its task exists completes, as the task's completion would.
    ///   - completion: Called exactly once, after any temporary file is removed.
    ///   - makeTask: Makes the task, for the transport's own session and callbacks.
    /// - Returns: The transfer, to cancel it.
    static func start(
        _ request: URLRequest,
        spoolDirectory: URL,
        callbackQueue: OperationQueue,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void,
        makeTask: @escaping MakeTask
    ) -> any TransportTask {
        guard let stream = request.httpBodyStream as? RequestBodyStream else {
            return resumed(makeTask(request, nil, completion))
        }
        let body = stream.body
        if let file = body.fileURL {
            return FileUploadTask(task: resumed(makeTask(withoutBody(request), file, completion)))
        }
        #if canImport(FoundationNetworking)
            let upload = SpooledUpload(
                request: withoutBody(request), body: body, directory: spoolDirectory, callbackQueue: callbackQueue,
                makeTask: makeTask, completion: completion)
            upload.begin()
            return upload
        #else
            var framed = request
            framed.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
            return resumed(makeTask(framed, nil, completion))
        #endif
    }

    /// `request` without its body stream, for a task that sends the body from a file.
    private static func withoutBody(_ request: URLRequest) -> URLRequest {
        var bodiless = request
        bodiless.httpBodyStream = nil
        return bodiless
    }

    private static func resumed(_ task: URLSessionTask) -> URLSessionTask {
        task.resume()
        return task
    }
}
