#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a ``RequestBody`` into a spool file for ``SpooledUpload``: bytes in memory as they
/// are, each file segment copied by the kernel with `sendfile(2)` (no trip through user space;
/// a sparse file's holes cost no disk reads), falling back to reads and writes where the
/// kernel refuses. At most 8 MiB move between two looks at `isCancelled`.
enum SpoolWriter {
    private static let step = 8 << 20

    /// Writes every byte of `body` at `destination`'s offset.
    ///
    /// - Throws: `CancellationError` when `isCancelled` turns true; ``RequestBodyError`` when a
    ///   file cannot be read, is shorter than when the request was built, or the spool cannot be
    ///   written.
    static func write(_ body: RequestBody, to destination: FileHandle, isCancelled: () -> Bool) throws {
        for segment in body.segments {
            switch segment {
            case .bytes(let data):
                var offset = data.startIndex
                while offset < data.endIndex {
                    if isCancelled() { throw CancellationError() }
                    let end = min(data.endIndex, offset + step)
                    do {
                        try destination.write(contentsOf: data[offset..<end])
                    } catch {
                        throw RequestBodyError.spoolFailed(reason: String(describing: error))
                    }
                    offset = end
                }
            case .file(let url, let size):
                try copy(url, size: size, to: destination, isCancelled: isCancelled)
            }
        }
    }

    /// Copies the first `size` bytes of the file at `url`.
    private static func copy(
        _ url: URL,
        size: Int64,
        to destination: FileHandle,
        isCancelled: () -> Bool
    ) throws {
        let source: FileHandle
        do {
            source = try FileHandle(forReadingFrom: url)
        } catch {
            throw RequestBodyError.unreadableFile(path: url.path, reason: String(describing: error))
        }
        defer { try? source.close() }
        var left = size
        #if canImport(Glibc) || canImport(Musl)
            while left > 0 {
                if isCancelled() { throw CancellationError() }
                let copied = sendfile(
                    destination.fileDescriptor, source.fileDescriptor, nil, Int(min(left, Int64(step))))
                if copied > 0 {
                    left -= Int64(copied)
                } else if copied == 0 {
                    throw RequestBodyError.fileChanged(path: url.path, expectedSize: size)
                } else if errno == EINTR || errno == EAGAIN {
                    continue
                } else if left == size && (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) {
                    break  // the kernel cannot copy these files: read and write below
                } else {
                    throw RequestBodyError.spoolFailed(reason: String(cString: strerror(errno)))
                }
            }
        #endif
        guard left > 0 else { return }
        var reader = RequestBodyReader(segments: [.file(url, size: size)])
        defer { reader.close() }
        while let chunk = try reader.read(upTo: 1 << 20) {
            if isCancelled() { throw CancellationError() }
            do {
                try destination.write(contentsOf: chunk)
            } catch {
                throw RequestBodyError.spoolFailed(reason: String(describing: error))
            }
        }
    }
}
