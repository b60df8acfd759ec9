import APIKitTestSupport
import Foundation
import Testing

@Suite("ScratchDirectory")
struct ScratchDirectoryTests {
    @Test("a fresh, empty directory; files written in it are listed, hidden ones included, sorted")
    func freshDirectory() throws {
        let scratch = try ScratchDirectory("scratch-test")
        defer { scratch.remove() }
        #expect(scratch.url.lastPathComponent.hasPrefix("apikit-scratch-test-"))
        #expect(try scratch.names().isEmpty)
        _ = try scratch.file("b.bin", contents: Data("b".utf8))
        _ = try scratch.file(".hidden", contents: Data())
        let pattern = try scratch.file("a.bin", size: 300)
        #expect(try scratch.names() == [".hidden", "a.bin", "b.bin"])
        #expect(try Data(contentsOf: pattern) == Data((0..<300).map { UInt8($0 % 251) }))
        #expect(scratch.file("c.bin") == scratch.url.appendingPathComponent("c.bin"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("c.bin").path))
    }

    @Test("made in the parent directory it is given; a parent that does not exist throws")
    func parent() throws {
        let outer = try ScratchDirectory("scratch-test")
        defer { outer.remove() }
        let inner = try ScratchDirectory("inner", in: outer.url)
        #expect(inner.url.deletingLastPathComponent().standardizedFileURL == outer.url.standardizedFileURL)
        #expect(try outer.names() == [inner.url.lastPathComponent])
        inner.remove()
        #expect(try outer.names().isEmpty)
        #expect(throws: (any Error).self) { try ScratchDirectory("inner", in: outer.file("missing")) }
    }

    @Test("remove() deletes the directory and what it holds; a second remove() does nothing")
    func remove() throws {
        let scratch = try ScratchDirectory("scratch-test")
        _ = try scratch.file("x.bin", contents: Data("x".utf8))
        scratch.remove()
        #expect(!FileManager.default.fileExists(atPath: scratch.url.path))
        scratch.remove()
    }

    @Test("the directory goes with the last reference, with its files")
    func removedWhenReleased() throws {
        var scratch: ScratchDirectory? = try ScratchDirectory("scratch-test")
        let url = try #require(scratch?.url)
        _ = try scratch?.file("x.bin", contents: Data("x".utf8))
        #expect(FileManager.default.fileExists(atPath: url.path))
        scratch = nil
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
