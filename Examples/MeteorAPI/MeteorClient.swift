public import APIKit

/// Sends Meteor requests: MeteorAPI's `APIClient`.
///
/// It holds the server every request is sent to and the `Session` that sends them; the session's
/// transport reports the progress ``send(_:progress:completion:)`` sees (`Session()`'s
/// `URLSessionTransport`, or a `StubTransport` in tests).
///
/// ```swift
/// let client = MeteorClient(server: URL(string: "https://api.meteor.example")!)
/// let handle = client.send(UploadFileRequest(file: fileURL), progress: { print($0.bytesSent, "bytes sent") }) { result in
///     print(result)
/// }
/// handle.cancel()
/// ```
public struct MeteorClient: Sendable {
    /// The server every request is sent to.
    public var server: URL
    /// Sends the requests.
    public var session: Session

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - server: The server every request is sent to.
    ///   - session: Sends the requests; `Session()` by default, whose `URLSessionTransport` reports progress.
    public init(server: URL = Meteor.production, session: Session = Session()) {
        self.server = server
        self.session = session
    }

    /// Sends `request` and calls `completion` with its response: MeteorAPI's `send(_:completion:)`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - options: Options for this call only (a timeout, for example).
    ///   - progress: Receives the bytes sent and received so far.
    ///   - completion: Receives the response or the `RequestError` naming the stage that failed.
    /// - Returns: The handle that cancels the request: MeteorAPI's `NetworkRequest`.
    @discardableResult
    public func send<R: MeteorRequest>(
        _ request: R,
        options: RequestOptions? = nil,
        progress: @escaping @Sendable (TransferProgress) -> Void = { _ in },
        completion: @escaping @Sendable (Result<R.Response, RequestError>) -> Void
    ) -> RequestHandle {
        onServer(request).perform(using: session, options: options, progress: progress, completion: completion)
    }

    /// Sends `request` and returns its response: MeteorAPI's `perform(_:)`.
    ///
    /// Cancelling the calling `Task` cancels the request.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - options: Options for this call only (a timeout, for example).
    ///   - progress: Receives the bytes sent and received so far.
    /// - Returns: The request's response.
    /// - Throws: The `RequestError` naming the stage that failed.
    public func perform<R: MeteorRequest>(
        _ request: R,
        options: RequestOptions? = nil,
        progress: @escaping @Sendable (TransferProgress) -> Void = { _ in }
    ) async throws(RequestError) -> R.Response {
        try await onServer(request).response(using: session, options: options, progress: progress)
    }

    /// `request` addressed to ``server``.
    func onServer<R: MeteorRequest>(_ request: R) -> R {
        var request = request
        request.base = server
        return request
    }
}
