extension URLRequest {
    /// The size of the body in bytes when it can be known without reading it: that of
    /// `httpBody`, the `Content-Length` header, or the length of an APIKit multipart stream;
    /// `0` without a body, `nil` for another stream without a `Content-Length`.
    var knownBodyLength: Int64? {
        if let body = httpBody { return Int64(body.count) }
        if let declared = value(forHTTPHeaderField: "Content-Length").flatMap({ Int64($0) }) { return declared }
        guard let stream = httpBodyStream else { return 0 }
        return (stream as? MultipartBodyStream)?.length
    }

    /// Whether the body is a stream, which a log cannot show without consuming it.
    var hasBodyStream: Bool {
        httpBody == nil && httpBodyStream != nil
    }
}
