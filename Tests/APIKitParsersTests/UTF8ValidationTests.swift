import Testing

@testable import APIKitParsers

@Suite("UTF8Validation")
struct UTF8ValidationTests {
    @Test("accepts well-formed UTF-8 at every sequence length and boundary")
    func valid() {
        let samples: [[UInt8]] = [
            [],
            [0x00],
            [0x7F],
            [0xC2, 0x80],
            [0xDF, 0xBF],
            [0xE0, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF],
            [0xEE, 0x80, 0x80],
            [0xEF, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBF, 0xBF],
            Array("héllo ✓ 日本 😀".utf8),
        ]
        for sample in samples {
            #expect(UTF8Validation.isValid(sample), "\(sample)")
            #expect(UTF8Validation.string(sample) == String(decoding: sample, as: UTF8.self))
            #expect(UTF8Validation.fallbackString(sample) == String(decoding: sample, as: UTF8.self))
        }
    }

    @Test("rejects ill-formed UTF-8")
    func invalid() {
        let samples: [[UInt8]] = [
            [0x80],
            [0xBF],
            [0xC0, 0x80],
            [0xC1, 0xBF],
            [0xC2],
            [0xC2, 0x41],
            [0xE0, 0x80, 0x80],
            [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80],
            [0xED, 0xBF, 0xBF],
            [0xE2, 0x9C],
            [0xE2, 0x9C, 0x41],
            [0xF0, 0x80, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80],
            [0xF0, 0x9F, 0x98],
            [0xFE],
            [0xFF],
            [0x61, 0x62, 0xFF],
        ]
        for sample in samples {
            #expect(!UTF8Validation.isValid(sample), "\(sample)")
            #expect(UTF8Validation.string(sample) == nil)
            #expect(UTF8Validation.fallbackString(sample) == nil)
        }
    }

    @Test("agrees with the standard library on every one- and two-byte input")
    func exhaustiveShort() {
        var disagreements = 0
        for first in 0...255 {
            let single = [UInt8(first)]
            if UTF8Validation.isValid(single) != (String(validating: single, as: UTF8.self) != nil) {
                disagreements += 1
            }
            for second in 0...255 {
                let pair = [UInt8(first), UInt8(second)]
                if UTF8Validation.isValid(pair) != (String(validating: pair, as: UTF8.self) != nil) {
                    disagreements += 1
                }
            }
        }
        #expect(disagreements == 0)
    }

    @Test("agrees with the standard library on random three- and four-byte input")
    func randomLonger() async {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
            0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var disagreements = 0
        for index in 0..<50_000 {
            // Seconds of computing: let the other tests' tasks have the pool's few threads too.
            if index % 5_000 == 0 { await Task.yield() }
            let length = Int.random(in: 3...6, using: &generator)
            let sample = (0..<length).map { _ in interesting.randomElement(using: &generator) ?? 0 }
            if UTF8Validation.isValid(sample) != (String(validating: sample, as: UTF8.self) != nil) {
                disagreements += 1
            }
        }
        #expect(disagreements == 0)
    }
}
