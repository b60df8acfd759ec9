import APIKitParsers
import APIKitTestSupport
import Foundation
import Testing

/// Bodies a faulty or hostile server could send. Every built-in parser must answer each with a
/// value or a ``ParsingError`` — never a crash, a hang or another kind of error.
@Suite("Hostile bodies: a value or a ParsingError, never a crash")
struct HostileBodyTests {
    struct Item: Decodable, Sendable {
        var id: Int
        var name: String
    }

    static let validJSON = Data(#"{"id": 12345678901, "name": "caf\u00e9 東京 😀", "tags": ["a", "b"]}"#.utf8)
    static let validForm = Data("a=1&b=caf%C3%A9+%E6%9D%B1&c=&d=%2B".utf8)

    /// The named hostile bodies, each a case the issue lists.
    static let named: [(String, Data)] = [
        ("empty", Data()),
        (
            "deeply nested arrays (10,000 levels)",
            Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        ),
        ("deeply nested objects (10,000 levels, unclosed)", Data(String(repeating: #"{"a":"#, count: 10_000).utf8)),
        ("huge integer", Data(#"{"id": 123456789012345678901234567890123456789, "name": "x"}"#.utf8)),
        ("huge exponent", Data(#"{"id": 1e999999999, "name": "x"}"#.utf8)),
        (
            "invalid UTF-8",
            Data([0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x31, 0x2C, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D])
        ),
        ("lone surrogate escape", Data(#"{"id": 1, "name": "\ud800"}"#.utf8)),
        ("UTF-8 BOM then JSON", Data([0xEF, 0xBB, 0xBF]) + validJSON),
        ("UTF-16 BOM then bytes", Data([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])),
        ("NUL bytes", Data(repeating: 0, count: 64)),
        ("form with bad escapes", Data("a=%&b=%G1&c=%E6%9D&%=%%".utf8)),
        ("form with invalid UTF-8", Data([0x61, 0x3D, 0xFF, 0xFE, 0x26, 0x62, 0x3D, 0x25, 0x43, 0x33])),
        ("form of a million separators", Data(repeating: UInt8(ascii: "&"), count: 1_000_000)),
    ]

    /// Runs every built-in parser on `body`; returns a description of anything that is neither
    /// a value nor a `ParsingError`.
    static func misbehaviour(on body: Data) -> String? {
        func check(_ name: String, _ parse: () throws -> Any) -> String? {
            do {
                _ = try parse()
                return nil
            } catch is ParsingError {
                return nil
            } catch {
                return "\(name) threw \(type(of: error)) instead of ParsingError"
            }
        }
        // One list rather than one `??` chain, which the type checker gives up on past a dozen parsers.
        let parsers: [(String, () throws -> Any)] = [
            ("JSONParser<Item>", { try JSONParser<Item>().parse(data: body) }),
            ("JSONParser<[String: Int]>", { try JSONParser<[String: Int]>().parse(data: body) }),
            ("JSONParser<Double>", { try JSONParser<Double>().parse(data: body) }),
            ("StringParser utf8", { try StringParser().parse(data: body) }),
            ("StringParser utf16", { try StringParser(encoding: .utf16).parse(data: body) }),
            ("StringParser isoLatin1", { try StringParser(encoding: .isoLatin1).parse(data: body) }),
            ("FormURLEncodedDataParser", { try FormURLEncodedDataParser(duplicateKeys: .useLast).parse(data: body) }),
            ("FormURLEncodedDataParser .fail", { try FormURLEncodedDataParser().parse(data: body) }),
            ("JSONParser<JSONValue>", { try JSONParser<JSONValue>().parse(data: body) }),
            ("JSONParser<[String: JSONValue]>", { try JSONParser<[String: JSONValue]>().parse(data: body) }),
            ("RawDataParser", { RawDataParser().parse(data: body) }),
            ("NoContentParser", { NoContentParser().parse(data: body) }),
        ]
        return parsers.lazy.compactMap { check($0.0, $0.1) }.first
    }

    @Test("each named hostile body gets a value or a ParsingError from every parser", arguments: 0..<named.count)
    func namedBodies(index: Int) {
        let (name, body) = Self.named[index]
        #expect(Self.misbehaviour(on: body) == nil, "\(name)")
    }

    @Test("deep nesting and huge numbers are ParsingErrors for JSON, with the body's length")
    func specificErrors() throws {
        for name in ["deeply nested arrays (10,000 levels)", "huge integer", "invalid UTF-8"] {
            let body = try #require(Self.named.first { $0.0 == name }?.1)
            let error = try #require(throws: ParsingError.self, "\(name)") { try JSONParser<Item>().parse(data: body) }
            #expect(error.bodyLength == body.count, "\(name)")
        }
        for name in ["deeply nested arrays (10,000 levels)", "invalid UTF-8", "NUL bytes"] {
            let body = try #require(Self.named.first { $0.0 == name }?.1)
            let error = try #require(throws: ParsingError.self, "\(name)") {
                try JSONParser<JSONValue>().parse(data: body)
            }
            #expect(error.reason == .invalidJSON, "\(name)")
        }
        let huge = try #require(Self.named.first { $0.0 == "huge exponent" }?.1)
        let hugeError = try #require(throws: ParsingError.self) {
            try JSONParser<[String: JSONValue]>().parse(data: huge)
        }
        #expect(hugeError.reason == .dataCorrupted)
        #expect(hugeError.codingPath == ["id"])
        #expect(throws: ParsingError.self) { try StringParser().parse(data: Data([0xC3, 0x28])) }
        #expect(throws: ParsingError.self) { try FormURLEncodedDataParser().parse(data: Data("a=%G1".utf8)) }
    }

    @Test("a JSON body behind a UTF-8 BOM still decodes")
    func byteOrderMark() throws {
        let item = try JSONParser<Item>().parse(data: Data([0xEF, 0xBB, 0xBF]) + Self.validJSON)
        #expect(item.id == 12_345_678_901)
    }

    @Test("20,000 seeded mutations of valid bodies (truncations, flips, insertions): no crash, only ParsingErrors")
    func seededMutations() async {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        let sources = [Self.validJSON, Self.validForm, Data("\u{FEFF}text ✓".utf8)]
        var failures: [String] = []
        for round in 0..<20_000 {
            // Seconds of computing: let the other tests' tasks have the pool's few threads too.
            if round % 500 == 0 { await Task.yield() }
            var body = sources[round % sources.count]
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                body = body.prefix(Int.random(in: 0...body.count, using: &generator))
            case 1:
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !body.isEmpty {
                    let at = Int.random(in: 0..<body.count, using: &generator)
                    body[body.startIndex + at] = UInt8.random(in: 0...255, using: &generator)
                }
            case 2:
                let at = Int.random(in: 0...body.count, using: &generator)
                let insert = Data(
                    (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    })
                body.insert(contentsOf: insert, at: body.startIndex + at)
            default:
                body = Data(
                    (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    })
            }
            if let problem = Self.misbehaviour(on: body) {
                failures.append("round \(round): \(problem); body \(Array(body))")
                if failures.count >= 5 { break }
            }
        }
        #expect(
            failures.isEmpty, "seed \(seed) (replay with SeededGenerator(seed:)): \(failures.joined(separator: "\n"))")
    }
}
