extension URLRequest {
    /// The body of this request as APIKit built it, with its length: what a ``Transport``
    /// frames with `Content-Length` and sends.
    ///
    /// `httpBody` is a body in memory; a body stream made by APIKit (a file, a multipart body
    /// with files) carries its description, which survives interceptors copying the request.
    /// `nil` when the request has no body, or a body stream APIKit did not make, whose length
    /// cannot be known without reading it.
    ///
    /// ```swift
    /// if let body = urlRequest.requestBody, let file = body.fileURL {
    ///     print("uploads \(file.lastPathComponent), \(body.length) bytes")
    /// }
    /// ```
    public var requestBody: RequestBody? {
        if let data = httpBody { return RequestBody(data: data) }
        return (httpBodyStream as? RequestBodyStream)?.body
    }

    /// Sets the body to `body`: its bytes as `httpBody` when they are all in memory, otherwise
    /// a stream that carries the body's description.
    mutating func setRequestBody(_ body: RequestBody) {
        if let data = body.inMemoryData {
            httpBody = data
        } else {
            httpBodyStream = body.makeInputStream()
        }
    }
}
