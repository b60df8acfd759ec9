import APIKitTestSupport
import Testing

@testable import APIKit

@Suite("Integers written as decimal digits")
struct DecimalTests {
    @Test(
        "the digits are String(int)'s, the extremes and the sign included",
        arguments: [0, 1, -1, 9, 10, -10, 99, 100, 42, 1_234_567_890, Int.max, Int.min, Int.min + 1, Int.max - 1]
    )
    func digits(_ int: Int) {
        var bytes = Array("x=".utf8)
        bytes.appendDecimal(int)
        #expect(String(decoding: bytes, as: UTF8.self) == "x=" + String(int))
    }

    @Test("a million generated integers, with a fixed seed")
    func generated() async {
        var generator = SeededGenerator(seed: 15)
        for index in 0..<1_000_000 {
            // Seconds of computing: let the other tests' tasks have the pool's few threads too.
            if index % 10_000 == 0 { await Task.yield() }
            let int = Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0..<64, using: &generator)
            var bytes: [UInt8] = []
            bytes.appendDecimal(int)
            guard String(decoding: bytes, as: UTF8.self) == String(int) else {
                Issue.record("\(int) was written as \(String(decoding: bytes, as: UTF8.self))")
                return
            }
        }
    }
}
