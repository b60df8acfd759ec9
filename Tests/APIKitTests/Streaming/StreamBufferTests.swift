import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("StreamBuffer: the head first, then the chunks, in the transport's order or not at all")
struct StreamBufferTests {
    /// Counts its cancellations.
    private struct CountedTask: TransportTask {
        let cancels = Protected(0)

        func cancel() {
            cancels.withLock { $0 += 1 }
        }
    }

    private static let head = HTTPURLResponse(
        url: URL(string: "https://api.example.test/")!, statusCode: 200, httpVersion: nil, headerFields: nil)!

    /// A short name for what the consumer read.
    private static func name(_ item: StreamBuffer.Item) -> String {
        switch item {
        case .response: "head"
        case .data(let chunk): String(decoding: chunk, as: UTF8.self)
        case .end: "end"
        case .failure(let error): "failure \((error as? URLError)?.code.rawValue ?? 0)"
        case .cancelled: "cancelled"
        }
    }

    @Test("head, chunks and end, read after all arrived or while they arrive: in that order")
    func inOrder() async {
        let buffer = StreamBuffer(limit: 100)
        buffer.receive(.response(Self.head))
        buffer.receive(.data(Data("ab".utf8)))
        #expect(Self.name(await buffer.next()) == "head")
        #expect(Self.name(await buffer.next()) == "ab")
        let waiting = Task { Self.name(await buffer.next()) }
        buffer.receive(.data(Data("cd".utf8)))
        #expect(await waiting.value == "cd")
        buffer.receive(.finished)
        #expect(Self.name(await buffer.next()) == "end")
    }

    @Test(
        "a chunk read is let go at once, though the consumer never catches up with the transport; the order holds"
    )
    func readChunksAreFreed() async {
        let buffer = StreamBuffer(limit: 10_000)
        let freed = Protected(0)
        /// A 1 KiB chunk of `byte`s that counts a free when its last reference goes.
        func chunk(_ byte: UInt8) -> Data {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 1)
            bytes.initializeMemory(as: UInt8.self, repeating: byte, count: 1024)
            return Data(
                bytesNoCopy: bytes, count: 1024,
                deallocator: .custom { pointer, _ in
                    pointer.deallocate()
                    freed.withLock { $0 += 1 }
                })
        }
        buffer.receive(.response(Self.head))
        #expect(Self.name(await buffer.next()) == "head")
        buffer.receive(.data(chunk(0)))
        // one chunk always waits: the queue never drains
        let count = 3_000
        var outOfOrder = 0
        for index in 1...count {
            buffer.receive(.data(chunk(UInt8(index % 251))))
            guard case .data(let read) = await buffer.next() else {
                Issue.record("expected a chunk")
                return
            }
            if read.first != UInt8((index - 1) % 251) { outOfOrder += 1 }
        }
        #expect(freed.withLock { $0 } == count, "chunks read are still held")
        #expect(outOfOrder == 0)
        buffer.cancel()
    }

    @Test("a chunk before the head fails the stream with badServerResponse and cancels the transfer")
    func chunkBeforeHead() async {
        let buffer = StreamBuffer(limit: 100)
        let task = CountedTask()
        buffer.attach(task)
        // all delivered before the consumer reads: the head, handed out first, must not hide the order
        buffer.receive(.data(Data("early".utf8)))
        buffer.receive(.response(Self.head))
        buffer.receive(.finished)
        let first = Self.name(await buffer.next())
        #expect(first == "failure \(URLError.badServerResponse.rawValue)")
        #expect(task.cancels.value == 1)
        // ended once: what came after is dropped
        #expect(Self.name(await buffer.next()) == first)
    }
}
