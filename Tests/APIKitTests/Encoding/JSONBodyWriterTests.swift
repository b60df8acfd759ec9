import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("Direct JSON writer")
struct JSONBodyWriterTests {
    private static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    private func direct(_ string: String) -> String {
        var bytes: [UInt8] = []
        JSONBodyWriter.appendString(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func direct(_ double: Double) throws -> String {
        var bytes: [UInt8] = []
        try JSONBodyWriter.appendDouble(double, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("strings are escaped exactly as JSONEncoder escapes them, for every ASCII character and beyond")
    func stringEscapes() throws {
        var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["", "a\"b\\c/d", "東京", "👍🏽", "e\u{301}", "\u{2028}\u{2029}", "\u{FEFF}", "tab\there\nnew"]
        for sample in samples {
            let expected = String(decoding: try Self.reference.encode(sample), as: UTF8.self)
            #expect(direct(sample) == expected, "escaping \(sample.unicodeScalars.map(\.value))")
        }
    }

    @Test("doubles are written exactly as JSONEncoder writes them")
    func doubles() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        var samples: [Double] = [
            0, -0.0, 0.1, 1, 100, 1e15, 1e16, 1e21, 1e22, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        samples += [9_007_199_254_740_992, 123_456_789.123, -2.5e-5, Double(Int64.max), Double(Int64.min)]
        for _ in 0..<2000 {
            samples.append(Double(bitPattern: generator.next()))
            samples.append(Double.random(in: -1e6...1e6, using: &generator))
            samples.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
        }
        for sample in samples where sample.isFinite {
            let expected = String(decoding: try Self.reference.encode(sample), as: UTF8.self)
            #expect(try direct(sample) == expected, "writing \(sample)")
        }
        #expect(throws: (any Error).self) { try direct(Double.nan) }
    }

    @Test("string and integer arrays, plain and Optional, are written exactly as JSONEncoder writes them")
    func arrays() throws {
        let strings: [[String]] = [[], [""], ["release", "swift"], ["a\"b\\c/d", "東京", "tab\there\nnew", "\u{1}"]]
        let ints: [[Int]] = [[], [0], [1, -2, 3], [Int.max, Int.min]]
        for (index, sample) in strings.enumerated() {
            let expected = String(decoding: try Self.reference.encode(sample), as: UTF8.self)
            let members: [DeclaredParameters.Member] = [
                .init(field: "a", parameter: .init(key: "a", value: sample, encoding: .json)),
                .init(field: "b", parameter: .init(key: "b", value: [String]?.some(sample), encoding: .json)),
                .init(field: "c", parameter: .init(key: "c", value: [String]?.none, encoding: .json)),
            ]
            let body = try Self.write(members, strategy: .init(bools: .numeric))
            #expect(
                String(decoding: body, as: UTF8.self) == "{\"a\":\(expected),\"b\":\(expected)}", "strings #\(index)")
            let document = try JSONBodyWriter.document(
                DeclaredValue(sample), strategy: ResolvedStrategy(field: .inherit, request: .inherit))
            #expect(String(decoding: document, as: UTF8.self) == expected, "document #\(index)")
        }
        for (index, sample) in ints.enumerated() {
            let expected = String(decoding: try Self.reference.encode(sample), as: UTF8.self)
            let members: [DeclaredParameters.Member] = [
                .init(field: "a", parameter: .init(key: "a", value: sample, encoding: .json)),
                .init(field: "b", parameter: .init(key: "b", value: [Int]?.some(sample), encoding: .json)),
                .init(field: "c", parameter: .init(key: "c", value: [Int]?.none, encoding: .json)),
            ]
            let body = try Self.write(members, strategy: .init(nils: .null))
            #expect(
                String(decoding: body, as: UTF8.self) == "{\"a\":\(expected),\"b\":\(expected),\"c\":null}",
                "ints #\(index)")
        }
    }

    @Test("members keep declaration order, nil members are left out, unknown values go through JSONEncoder")
    func members() throws {
        struct Nested: Encodable { var b = 1, a = [true] }
        let members: [DeclaredParameters.Member] = [
            .init(field: "s", parameter: .init(key: "s", value: "x", encoding: .json)),
            .init(field: "n", parameter: .init(key: "n", value: Int?.none, encoding: .json)),
            .init(field: "u", parameter: .init(key: "u", value: UInt8(7), encoding: .json)),
            .init(field: "o", parameter: .init(key: "o", value: Nested?.some(Nested()), encoding: .json)),
            .init(field: "z", parameter: .init(key: "z", value: String??.some(nil), encoding: .json)),
            .init(field: "d", parameter: .init(key: "d", value: Double?.some(2), encoding: .json)),
        ]
        let body = try Self.write(members)
        #expect(String(decoding: body, as: UTF8.self) == #"{"s":"x","u":7,"o":{"a":[true],"b":1},"d":2}"#)
    }

    /// The JSON object of `members`, written member by member as the serializer writes declared ones.
    private static func write(_ members: [DeclaredParameters.Member], strategy: EncodingStrategy = .inherit) throws
        -> Data
    {
        var body: [UInt8] = [UInt8(ascii: "{")]
        var isFirst = true
        for member in members {
            try JSONBodyWriter.appendMember(
                member.parameter.value, key: member.parameter.key, field: member.parameter.strategy,
                request: strategy, isFirst: &isFirst, to: &body)
        }
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }
}
