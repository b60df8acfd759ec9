extension URLSession: Transport {
    /// Sends `request` as a data task and calls `completion` from the session's delegate queue.
    ///
    /// A response without an error but without a `URLResponse` is reported as
    /// `URLError(.badServerResponse)`. A body set as `httpBodyStream` is streamed by the
    /// data task.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - completion: Receives the response and body, or the error; on the delegate queue.
    /// - Returns: The resumed `URLSessionDataTask`.
    public func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let task = dataTask(with: request) { data, response, error in
            if let error {
                completion(.failure(error))
            } else if let response {
                completion(.success(TransportResponse(data: data ?? Data(), urlResponse: response)))
            } else {
                completion(.failure(URLError(.badServerResponse)))
            }
        }
        task.resume()
        return task
    }
}

extension URLSessionTask: TransportTask {}
