import APIKit
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLRequest` as AsyncHTTPClient takes it, with what the transfer needs to know about it.
struct OutgoingRequest: Sendable {
    /// The request for AsyncHTTPClient.
    var request: HTTPClientRequest
    /// The length of the body, when it has one of known length.
    var expectedBytesToSend: Int64?
    /// `URLRequest.timeoutInterval`, when positive and finite.
    var idleTimeout: TimeInterval?

    /// The chunk size for bodies streamed from disk or from a foreign stream, and the size of
    /// the slices a body in memory is written in on the event-loop road.
    static let chunkSize = 64 * 1024

    /// Converts `urlRequest`.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as APIKit built it.
    ///   - onChunkSent: Called with the size of each chunk of a streamed body handed to the
    ///     client.
    /// - Throws: `URLError(.badURL)` when the request has no URL.
    init(_ urlRequest: URLRequest, onChunkSent: @escaping @Sendable (Int) -> Void) throws {
        guard let url = urlRequest.url else { throw URLError(.badURL, underlying: nil, url: nil) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        request.headers = Self.headers(of: urlRequest)

        if let body = urlRequest.requestBody {
            expectedBytesToSend = body.length
            // read in chunks (a body in memory takes the event loop's road, in slices that a
            // redirect keeping the body can send again; this API sends a stream only once)
            request.body = .stream(
                ByteBufferChunks(RequestBodyByteBuffers(body.chunks(size: Self.chunkSize)), onChunk: onChunkSent),
                length: .known(body.length))
        } else if let stream = urlRequest.httpBodyStream {
            request.body = .stream(
                ByteBufferChunks(InputStreamByteBuffers(stream, chunkSize: Self.chunkSize), onChunk: onChunkSent),
                length: .unknown)
        }
        self.request = request

        idleTimeout = Self.idleTimeout(of: urlRequest)
    }
}

extension OutgoingRequest {
    /// The header fields of `urlRequest` but those that frame the body: framing is decided from
    /// the body, never from a header (AsyncHTTPClient sets it). Both roads send these.
    static func headers(of urlRequest: URLRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        guard let fields = urlRequest.allHTTPHeaderFields else { return headers }
        headers.reserveCapacity(fields.count)
        for (name, value) in fields where !isFraming(name) {
            headers.add(name: name, value: value)
        }
        return headers
    }

    /// `URLRequest.timeoutInterval` as the idle timeout, when positive and finite.
    static func idleTimeout(of urlRequest: URLRequest) -> TimeInterval? {
        let timeout = urlRequest.timeoutInterval
        return timeout > 0 && timeout.isFinite ? timeout : nil
    }

    /// Whether `name` is `Content-Length` or `Transfer-Encoding`, in any case: compared byte by
    /// byte, without lowercasing every header name of every request.
    static func isFraming(_ name: String) -> Bool {
        let utf8 = name.utf8
        switch utf8.count {
        case 14: return equalsIgnoringASCIICase(utf8, "content-length")
        case 17: return equalsIgnoringASCIICase(utf8, "transfer-encoding")
        default: return false
        }
    }

    /// `name` equals `lowercase` (lowercase ASCII, of the same length) but for ASCII case.
    private static func equalsIgnoringASCIICase(_ name: String.UTF8View, _ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { expected in
            zip(name, expected).allSatisfy { byte, wanted in
                byte == wanted || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == wanted)
            }
        }
    }
}

extension HTTPClient.Body {
    /// `buffer` written in slices of `size` bytes, each once the connection took the one before:
    /// AsyncHTTPClient reports each slice as it is written (`didSendRequestPart`), so a large
    /// body moves the idle clock while it goes out, where one write would be reported only once
    /// the last byte left.
    ///
    /// The slices share the buffer's storage (nothing is copied), and every call of the stream
    /// closure starts again from the first byte: AsyncHTTPClient calls it again when it follows
    /// a redirect that keeps the body (307, 308), as it does for a body written in one go. A
    /// buffer of one slice or less is that body written in one go, without the stream.
    static func slices(of buffer: ByteBuffer, size: Int) -> Self {
        guard buffer.readableBytes > size else { return .byteBuffer(buffer) }
        return .stream(contentLength: Int64(buffer.readableBytes)) { writer in
            writeSlices(of: buffer, size: size, to: writer)
        }
    }

    /// Writes the first slice of `rest`, then the others once it was taken.
    private static func writeSlices(
        of rest: ByteBuffer, size: Int, to writer: StreamWriter
    ) -> EventLoopFuture<Void> {
        var rest = rest
        let slice = rest.readSlice(length: min(size, rest.readableBytes)) ?? ByteBuffer()
        let written = writer.write(.byteBuffer(slice))
        guard rest.readableBytes > 0 else { return written }
        let remaining = rest
        return written.flatMapWithEventLoop { _, loop in
            // submitted rather than called: a write that completes at once would otherwise add a
            // stack frame per slice
            loop.flatSubmit { writeSlices(of: remaining, size: size, to: writer) }
        }
    }
}

/// Chunks of a body as `ByteBuffer`s, calling `onChunk` with the size of each as the client
/// takes it.
struct ByteBufferChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let onChunk: @Sendable (Int) -> Void

    init(_ base: Base, onChunk: @escaping @Sendable (Int) -> Void) {
        self.base = base
        self.onChunk = onChunk
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), onChunk: onChunk)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let onChunk: @Sendable (Int) -> Void

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            onChunk(chunk.readableBytes)
            return chunk
        }
    }
}

/// A ``RequestBody``'s chunks (read from disk one at a time) as `ByteBuffer`s.
struct RequestBodyByteBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let chunks: RequestBody.Chunks

    init(_ chunks: RequestBody.Chunks) {
        self.chunks = chunks
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: chunks.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: RequestBody.Chunks.Iterator

        mutating func next() async throws -> ByteBuffer? {
            try await base.next().map { ByteBuffer(data: $0) }
        }
    }
}

/// A body stream APIKit did not make, read in chunks; its length is unknown.
///
/// `@unchecked Sendable`: the stream is only touched by the one iteration AsyncHTTPClient runs
/// (a foreign stream can be read once), one `next()` at a time, under the box's lock anyway.
struct InputStreamByteBuffers: AsyncSequence, @unchecked Sendable {
    typealias Element = ByteBuffer

    final class Box: @unchecked Sendable {
        let lock = NSLock()
        let stream: InputStream
        var isOpen = false

        init(_ stream: InputStream) {
            self.stream = stream
        }

        func read(upTo size: Int) throws -> ByteBuffer? {
            lock.lock()
            defer { lock.unlock() }
            if !isOpen {
                stream.open()
                isOpen = true
            }
            var buffer = [UInt8](repeating: 0, count: size)
            let count = stream.read(&buffer, maxLength: size)
            if count < 0 {
                throw stream.streamError ?? URLError(.cannotDecodeRawData)
            }
            if count == 0 {
                stream.close()
                return nil
            }
            return ByteBuffer(bytes: buffer[0..<count])
        }
    }

    let box: Box
    let chunkSize: Int

    init(_ stream: InputStream, chunkSize: Int) {
        self.box = Box(stream)
        self.chunkSize = chunkSize
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(box: box, chunkSize: chunkSize)
    }

    struct Iterator: AsyncIteratorProtocol {
        let box: Box
        let chunkSize: Int

        func next() async throws -> ByteBuffer? {
            try box.read(upTo: chunkSize)
        }
    }
}
