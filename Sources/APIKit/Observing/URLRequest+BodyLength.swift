extension URLRequest {
    /// The size of the body in bytes when it can be known without reading it: that of
    /// `httpBody` or of a body APIKit built (``requestBody``), else the `Content-Length`
    /// header; `0` without a body, `nil` for another stream without a `Content-Length`.
    var knownBodyLength: Int64? {
        if let body = requestBody { return body.length }
        if let declared = value(forHTTPHeaderField: "Content-Length").flatMap({ Int64($0) }) { return declared }
        return httpBodyStream == nil ? 0 : nil
    }

    /// Whether the body is a stream, which a log cannot show without consuming it.
    var hasBodyStream: Bool {
        httpBody == nil && httpBodyStream != nil
    }
}
