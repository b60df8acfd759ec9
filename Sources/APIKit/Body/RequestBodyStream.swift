/// Reads a ``RequestBody`` as an `InputStream`, for `URLRequest.httpBodyStream`, through a
/// ``RequestBodyReader``: at most as many bytes as the reader asks for at a time. It also
/// carries the body's description, so that a transport finds the length and the files of a
/// body it is handed as a stream (`URLRequest.requestBody`), after interceptors
/// have copied the request any number of times.
///
/// URLSession reads the stream synchronously (corelibs Foundation calls `hasBytesAvailable`
/// and `read(_:maxLength:)` from its work queue; a `read` of `0` ends the body, `-1` aborts the
/// transfer). So a file that cannot be opened, or that holds fewer bytes than when the request
/// was built, makes `read` return `-1` with ``streamError`` set: URLSession then fails the task.
/// After such an error `hasBytesAvailable` stays `true`, so that a reader asks again and sees
/// the error rather than a short, well-formed body.
///
/// `@unchecked Sendable` is not claimed: the stream is handed to URLSession, which owns it
/// from then on. Its state is kept behind a lock all the same, because `streamStatus` may be
/// read from another thread than the one reading.
final class RequestBodyStream: InputStream {
    /// The body this stream reads.
    let body: RequestBody
    private let lock = NSLock()
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?
    private var reader: RequestBodyReader

    init(body: RequestBody) {
        self.body = body
        reader = RequestBodyReader(segments: body.segments)
        super.init(data: Data())
    }

    override func open() {
        lock.withLock {
            if status == .notOpen { status = .open }
        }
    }

    override func close() {
        lock.withLock {
            reader.close()
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
                let count = try reader.read(into: buffer, length: length)
                status = count == 0 ? .atEnd : .open
                return count
            } catch {
                reader.close()
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
}

#if canImport(Darwin)
    // Apple's URLSession schedules a body stream through private CFReadStream hooks that a
    // Swift subclass of InputStream does not implement; without them it stops with
    // "unrecognized selector". The stream delivers no run-loop events, so they do nothing.
    // (Not exercised by this repository's Linux CI.)
    extension RequestBodyStream {
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
