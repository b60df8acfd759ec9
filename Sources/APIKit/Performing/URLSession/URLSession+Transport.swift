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
        // Most requests have no body stream: a data task, as before bodies were framed here,
        // without the closures of the upload path (callgrind: ~3k instructions a request).
        guard URLSessionUpload.needsFraming(request) else {
            let task = dataTask(with: request, completionHandler: Self.handler(completion))
            task.resume()
            return task
        }
        return URLSessionUpload.start(
            request, spoolDirectory: FileManager.default.temporaryDirectory, completion: completion
        ) { [self] request, file, completion in
            if let file {
                return uploadTask(with: request, fromFile: file, completionHandler: Self.handler(completion))
            }
            return dataTask(with: request, completionHandler: Self.handler(completion))
        }
    }

    /// A completion handler that reports to `completion`: the error, the response with its
    /// body, or `URLError(.badServerResponse)` when there is neither.
    private static func handler(
        _ completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable (Data?, URLResponse?, (any Error)?) -> Void {
        { data, response, error in
            if let error {
                completion(.failure(error))
            } else if let response {
                completion(.success(TransportResponse(data: data ?? Data(), urlResponse: response)))
            } else {
                completion(.failure(URLError(.badServerResponse)))
            }
        }
    }
}

extension URLSessionTask: TransportTask {}
