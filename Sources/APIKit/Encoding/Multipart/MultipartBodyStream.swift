/// Reads a ``MultipartBody`` as an `InputStream`, for `URLRequest.httpBodyStream`: bytes in
/// memory as they are, each file through a `FileHandle`, at most as many bytes as the reader
/// asks for at a time. A file is opened when the stream reaches it and closed when it is done.
///
/// URLSession reads the stream synchronously (corelibs Foundation calls `hasBytesAvailable`
/// and `read(_:maxLength:)` from its work queue; a `read` of `0` ends the body, `-1` aborts the
/// transfer). So a file that cannot be opened, or that holds fewer bytes than when the request
/// was built, makes `read` return `-1` with ``streamError`` set: URLSession then fails the task,
/// which ``Request/perform(session:completionQueue:completion:)`` reports as
/// ``RequestError/transportFailed(_:context:)``. After such an error `hasBytesAvailable` stays
/// `true`, so that a reader asks again and sees the error rather than a short, well-formed body.
///
/// `@unchecked Sendable` is not claimed: the stream is handed to URLSession, which owns it
/// from then on. Its state is kept behind a lock all the same, because `streamStatus` may be
/// read from another thread than the one reading.
final class MultipartBodyStream: InputStream {
    private let segments: [MultipartBody.Segment]
    private let lock = NSLock()
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?
    /// The segment being read, and how far into it.
    private var index = 0
    private var offset: Int64 = 0
    private var handle: FileHandle?

    /// Why the stream failed while reading a file.
    struct FileChanged: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) became shorter after the request was built" }
    }

    /// The number of bytes the stream holds, when every file keeps the size it had when the
    /// request was built; for progress and logs, which cannot ask URLSession.
    var length: Int64 {
        MultipartBody.length(of: segments)
    }

    init(segments: [MultipartBody.Segment]) {
        self.segments = segments
        super.init(data: Data())
    }

    override func open() {
        lock.withLock {
            if status == .notOpen { status = .open }
        }
    }

    override func close() {
        lock.withLock {
            closeFile()
            status = .closed
        }
    }

    override var streamStatus: Stream.Status { lock.withLock { status } }

    override var streamError: (any Error)? { lock.withLock { failure } }

    override var hasBytesAvailable: Bool {
        lock.withLock {
            switch status {
            case .open, .reading, .error: true
            default: false
            }
        }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        lock.withLock {
            switch status {
            case .open, .reading: break
            case .error: return -1
            default: return 0
            }
            do {
                let count = try fill(buffer, length: length)
                status = count == 0 ? .atEnd : .open
                return count
            } catch {
                closeFile()
                failure = error
                status = .error
                return -1
            }
        }
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    // The stream has no run-loop events to deliver: URLSession reads it synchronously.
    override var delegate: (any StreamDelegate)? {
        get { nil }
        set {}
    }

    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    #if canImport(Darwin)
        override func property(forKey key: Stream.PropertyKey) -> Any? { nil }

        override func setProperty(_ property: Any?, forKey key: Stream.PropertyKey) -> Bool { false }
    #else
        override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

        override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }
    #endif

    /// Copies up to `length` bytes of the body into `buffer`; `0` at the end.
    private func fill(_ buffer: UnsafeMutablePointer<UInt8>, length: Int) throws -> Int {
        var written = 0
        while written < length, index < segments.count {
            switch segments[index] {
            case .bytes(let data):
                let start = data.startIndex + Int(offset)
                let count = min(length - written, data.endIndex - start)
                data.copyBytes(to: buffer + written, from: start..<(start + count))
                written += count
                offset += Int64(count)
                if offset == Int64(data.count) { nextSegment() }
            case .file(let url, let size):
                if offset == size {
                    nextSegment()
                    continue
                }
                if handle == nil { handle = try FileHandle(forReadingFrom: url) }
                let wanted = Int(min(Int64(length - written), size - offset))
                guard let chunk = try handle?.read(upToCount: wanted), !chunk.isEmpty else {
                    throw FileChanged(path: url.path)
                }
                chunk.copyBytes(to: buffer + written, count: chunk.count)
                written += chunk.count
                offset += Int64(chunk.count)
            }
        }
        return written
    }

    private func nextSegment() {
        closeFile()
        index += 1
        offset = 0
    }

    private func closeFile() {
        try? handle?.close()
        handle = nil
    }
}

#if canImport(Darwin)
    // Apple's URLSession schedules a body stream through private CFReadStream hooks that a
    // Swift subclass of InputStream does not implement; without them it stops with
    // "unrecognized selector". The stream delivers no run-loop events, so they do nothing.
    // (Not exercised by this repository's Linux CI.)
    extension MultipartBodyStream {
        @objc func _scheduleInCFRunLoop(_ runLoop: CFRunLoop, forMode mode: CFString) {}

        @objc func _unscheduleFromCFRunLoop(_ runLoop: CFRunLoop, forMode mode: CFString) {}

        @objc func _setCFClientFlags(
            _ flags: CFOptionFlags,
            callback: CFReadStreamClientCallBack?,
            context: UnsafeMutablePointer<CFStreamClientContext>?
        ) -> Bool {
            false
        }
    }
#endif
