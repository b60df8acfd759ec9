/// A `multipart/form-data` body ready to send: its bytes in order, with each file on disk
/// standing for its contents, which are read only when the body is streamed.
struct MultipartBody {
    /// A stretch of the body.
    enum Segment: Equatable {
        /// Bytes held in memory: delimiters, part headers, text, JSON and in-memory files.
        case bytes(Data)
        /// The first `size` bytes of a file, which had that size when the request was built.
        case file(URL, size: Int64)
    }

    let boundary: String
    let segments: [Segment]

    /// The number of bytes the body holds.
    var length: Int64 {
        Self.length(of: segments)
    }

    /// The number of bytes `segments` hold.
    static func length(of segments: [Segment]) -> Int64 {
        segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .file(_, let size): total + size
            }
        }
    }

    /// The `Content-Type` header value, which names the boundary.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The whole body when no part is a file on disk, so that it can be sent as `httpBody`.
    var inMemoryData: Data? {
        var data = Data()
        for segment in segments {
            guard case .bytes(let bytes) = segment else { return nil }
            data.append(bytes)
        }
        return data
    }

    /// A new stream that reads the body, files in chunks; each request needs its own.
    func makeStream() -> InputStream {
        MultipartBodyStream(segments: segments)
    }
}
