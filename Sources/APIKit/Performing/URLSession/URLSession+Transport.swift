extension URLSession: Transport {
    /// Sends `request` and calls `completion` from the session's delegate queue.
    ///
    /// A response without an error but without a `URLResponse` is reported as
    /// `URLError(.badServerResponse)`. A body APIKit built goes out with its `Content-Length`:
    /// a file as an upload task from that file, and on Linux a multipart body with files is
    /// first written to a temporary file (see ``RequestBody``). A body stream of unknown
    /// length is streamed by a data task.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - completion: Receives the response and body, or the error; on the delegate queue.
    /// - Returns: The transfer, to cancel it.
    public func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        URLSessionUpload.start(request, spoolDirectory: FileManager.default.temporaryDirectory, completion: completion)
        {
            [self] request, file, completion in
            let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                if let error {
                    completion(.failure(error))
                } else if let response {
                    completion(.success(TransportResponse(data: data ?? Data(), urlResponse: response)))
                } else {
                    completion(.failure(URLError(.badServerResponse)))
                }
            }
            if let file {
                return uploadTask(with: request, fromFile: file, completionHandler: handler)
            }
            return dataTask(with: request, completionHandler: handler)
        }
    }
}

extension URLSessionTask: TransportTask {}
