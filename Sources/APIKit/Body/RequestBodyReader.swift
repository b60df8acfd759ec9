/// Reads a ``RequestBody`` from its start, synchronously, a chunk at a time: bytes in memory
/// as they are, each file through a `FileHandle` opened when the reader reaches it and closed
/// when it is done. The one place that walks the segments, for the input stream, the async
/// chunks and the spool file alike.
struct RequestBodyReader {
    private let segments: [RequestBody.Segment]
    /// The segment being read, and how far into it.
    private var index = 0
    private var offset: Int64 = 0
    private var handle: FileHandle?

    init(segments: [RequestBody.Segment]) {
        self.segments = segments
    }

    /// Up to `maximum` of the next bytes; `nil` at the end of the body.
    ///
    /// - Throws: ``RequestBodyError`` when a file cannot be opened or read, or ends before
    ///   the size it had when the request was built.
    mutating func read(upTo maximum: Int) throws(RequestBodyError) -> Data? {
        while index < segments.count {
            switch segments[index] {
            case .bytes(let data):
                let start = data.startIndex + Int(offset)
                guard start < data.endIndex else {
                    nextSegment()
                    continue
                }
                let end = min(data.endIndex, start + maximum)
                offset += Int64(end - start)
                return data[start..<end]
            case .file(let url, let size):
                guard offset < size else {
                    nextSegment()
                    continue
                }
                let wanted = Int(min(Int64(maximum), size - offset))
                let chunk: Data?
                do {
                    if handle == nil { handle = try FileHandle(forReadingFrom: url) }
                    chunk = try handle?.read(upToCount: wanted)
                } catch {
                    close()
                    throw .unreadableFile(path: url.path, reason: String(describing: error))
                }
                guard let chunk, !chunk.isEmpty else {
                    close()
                    throw .fileChanged(path: url.path, expectedSize: size)
                }
                offset += Int64(chunk.count)
                return chunk
            }
        }
        return nil
    }

    /// Copies up to `length` bytes of the body into `buffer`; `0` at the end.
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, length: Int) throws(RequestBodyError) -> Int {
        var written = 0
        while written < length, let chunk = try read(upTo: length - written) {
            chunk.copyBytes(to: buffer + written, count: chunk.count)
            written += chunk.count
        }
        return written
    }

    /// Closes the file being read, if any.
    mutating func close() {
        try? handle?.close()
        handle = nil
    }

    private mutating func nextSegment() {
        close()
        index += 1
        offset = 0
    }
}
