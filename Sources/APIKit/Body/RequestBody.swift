/// A request body as APIKit built it: where its bytes come from, and how many there are.
///
/// Every body APIKit builds has a length known before the first byte is sent: a JSON or form
/// body and in-memory parts are bytes; a file (``FileBody``, a ``FilePart`` on disk) counts
/// with the size it had when the request was built. A ``Transport`` reads the body of a
/// request through `URLRequest.requestBody` and frames it with that length, as
/// `Content-Length`: never as a chunked stream, which many servers do not accept (an S3
/// presigned POST answers 411; a server that reads by `Content-Length` alone reads nothing).
///
/// The bytes can be read as often as needed — a retry reads a file again — in two ways:
/// ``chunks(size:)`` (an `AsyncSequence` that never holds a file in memory, for engines that
/// stream a body of known length) and ``data()``. A body whose bytes are all in memory (JSON, a
/// form, a multipart body without files) is the request's `httpBody`, and ``data()`` returns it
/// without a copy; a whole-file body names its file (``fileURL``); any other body (a multipart
/// body with files) is the request's `httpBodyStream`, which reads the same bytes for a
/// `URLSession`.
///
/// ```swift
/// struct CheckingTransport: Transport {
///     var base: any Transport = URLSessionTransport.shared
///
///     func send(
///         _ request: URLRequest,
///         progress: (@Sendable (TransferProgress) -> Void)?,
///         completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
///     ) -> any TransportTask {
///         if let body = request.requestBody {
///             print("sending \(body.length) bytes", body.fileURL.map { "from \($0.path)" } ?? "")
///         }
///         return base.send(request, progress: progress, completion: completion)
///     }
/// }
/// ```
///
/// Where the body is read through APIKit — ``chunks(size:)`` (`AsyncHTTPClientTransport`), the
/// spool ``URLSessionTransport`` writes on Linux for a multipart body with files — a file that
/// is shorter when it is read than when the request was built fails the transfer with
/// ``RequestBodyError/fileChanged(path:expectedSize:)``, and bytes added to it after the
/// request was built are not sent. A body that is one whole file goes through `URLSession`'s
/// `uploadTask(with:fromFile:)` on ``URLSessionTransport``, which sends the file as it is when
/// the transfer starts.
public struct RequestBody: Sendable, Hashable {
    /// A stretch of the body.
    enum Segment: Sendable, Hashable {
        /// Bytes held in memory: delimiters, part headers, text, JSON and in-memory files.
        case bytes(Data)
        /// The first `size` bytes of a file, which had that size when the request was built.
        case file(URL, size: Int64)
    }

    /// The stretches of the body, in order.
    let segments: [Segment]

    /// The number of bytes the body holds.
    public let length: Int64

    init(segments: [Segment]) {
        self.segments = segments
        length = segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .file(_, let size): total + size
            }
        }
    }

    /// A body of bytes in memory: what `URLRequest.requestBody` reads from
    /// `httpBody`.
    ///
    /// - Parameter data: The bytes.
    init(data: Data) {
        self.init(segments: [.bytes(data)])
    }

    /// The file that is the whole body, when it is one: a transport may send it as it is (for
    /// example with `URLSession.uploadTask(with:fromFile:)`) instead of reading ``chunks(size:)``.
    public var fileURL: URL? {
        guard segments.count == 1, case .file(let url, _) = segments[0] else { return nil }
        return url
    }

    /// The body's bytes, when they are all in memory; `nil` when part of the body is a file.
    /// A body with a file is told apart before any byte is copied (``data()`` asks first).
    var inMemoryData: Data? {
        if segments.count == 1, case .bytes(let data) = segments[0] { return data }
        let parts = segments.compactMap { segment -> Data? in
            guard case .bytes(let bytes) = segment else { return nil }
            return bytes
        }
        guard parts.count == segments.count else { return nil }
        return parts.reduce(into: Data()) { $0.append($1) }
    }

    /// The whole body in memory: the bytes themselves, without a copy, for a body in memory (the
    /// request's `httpBody`); read from its files otherwise, which is meant for tests (checking
    /// what a ``StubTransport`` was sent) and small bodies, never for uploading a file.
    ///
    /// ```swift
    /// let stub = StubTransport { request in
    ///     let sent = try? request.requestBody?.data()
    ///     print(sent?.count ?? 0, "bytes sent")
    ///     return .success(body: "{}")
    /// }
    /// ```
    ///
    /// - Returns: Every byte of the body.
    /// - Throws: ``RequestBodyError`` when a file cannot be read or became shorter.
    public func data() throws(RequestBodyError) -> Data {
        if let data = inMemoryData { return data }
        var reader = RequestBodyReader(segments: segments)
        // Reserved up to 16 MiB: the length of a huge file is no reason to ask for that much at once.
        var data = Data(capacity: Int(clamping: min(length, 16 << 20)))
        while let chunk = try reader.read(upTo: 256 * 1024) {
            data.append(chunk)
        }
        return data
    }

    /// A new stream that reads the body, files in chunks, as `URLRequest.httpBodyStream`; each
    /// transfer needs its own.
    ///
    /// - Returns: A stream of the body's bytes, not yet opened.
    func makeInputStream() -> InputStream {
        RequestBodyStream(body: self)
    }
}
