import Foundation

@testable import APIKit

/// Generated stream bodies and what a reader must get from them whatever their chunking: the
/// elements the bytes contain, then the error where the bytes stop making sense.
///
/// Shared by the decoder tests, the `StubTransport` stream tests and (a copy in spirit) the
/// real-server tests; every body comes from a seeded generator, so a failure names a seed that
/// reproduces it.
enum StreamBodies {
    /// A JSON Lines item; its text holds multi-byte UTF-8 (2, 3 and 4 bytes).
    struct Item: Codable, Equatable, Sendable {
        let id: Int
        let text: String
    }

    /// A generated body and what reading it must give.
    struct Case<Element: Equatable>: CustomStringConvertible {
        let bytes: [UInt8]
        let elements: [Element]
        /// ``StreamBodies/summary(_:)`` of the error after the elements; `nil` for a clean end.
        let error: String?
        let seed: UInt64

        var description: String {
            "seed \(seed): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
        }
    }

    /// A short name for a decoding error that is the same whatever the chunking.
    static func summary(_ error: ResponseStreamError) -> String {
        switch error {
        case .lineTooLong(let limit): "lineTooLong(\(limit))"
        case .eventTooLarge(let limit): "eventTooLarge(\(limit))"
        case .invalidJSONLine(let number, let prefix, _): "invalidJSONLine(\(number), \(prefix))"
        case .bufferLimitExceeded, .unacceptableContentType: "not a decoder's: \(error)"
        }
    }

    static let texts = ["a", "caf\u{E9}", "\u{3042}\u{3044}", "\u{1F680}!", "", "tab\there"]
    static let badLines = ["{\"id\":", "not json", "{\"id\":\"x\",\"text\":\"y\"}", "[1,2]", "\u{E9}"]

    /// A JSON Lines body of `count` lines — values, blank lines, at most one bad line — with LF,
    /// CRLF and CR line ends, the last sometimes without one.
    static func jsonLines(seed: UInt64, count: Int, badLine: Bool) -> Case<Item> {
        var random = SeededRandom(seed: seed)
        let bad = badLine ? Int.random(in: 0..<count, using: &random) : -1
        var text = ""
        var items: [Item] = []
        var error: String?
        var previousEnd = ""
        for index in 0..<count {
            var line: String
            if index == bad {
                line = badLines.randomElement(using: &random)!
            } else if Int.random(in: 0..<5, using: &random) == 0 {
                line = ["", " ", "\t "].randomElement(using: &random)!
            } else {
                let item = Item(id: index, text: texts.randomElement(using: &random)!)
                line = String(decoding: try! JSONEncoder().encode(item), as: UTF8.self)
                if error == nil { items.append(item) }
            }
            if index == bad, error == nil {
                let prefix = Array(line.utf8).withUnsafeBufferPointer { ResponseStreamError.linePrefix($0) }
                error = "invalidJSONLine(\(index + 1), \(prefix))"
            }
            var ends = ["\n", "\r\n", "\r"]
            // an empty line after a CR must not start with LF: the two would be one CRLF
            if line.isEmpty, previousEnd == "\r" { ends = ["\r\n", "\r"] }
            let last = index == count - 1
            let end = last && Bool.random(using: &random) && !line.isEmpty ? "" : ends.randomElement(using: &random)!
            text += line + end
            previousEnd = end
        }
        return Case(bytes: Array(text.utf8), elements: items, error: error, seed: seed)
    }

    /// A text body of `count` lines with LF, CRLF and CR line ends; with `limit`, one line at a
    /// random place is longer than it.
    static func lines(seed: UInt64, count: Int, limit: Int?) -> Case<String> {
        var random = SeededRandom(seed: seed)
        let long = limit.map { _ in Int.random(in: 0..<count, using: &random) } ?? -1
        var text = ""
        var lines: [String] = []
        var error: String?
        var previousEnd = ""
        for index in 0..<count {
            var line = (0..<Int.random(in: 0...3, using: &random)).map { _ in texts.randomElement(using: &random)! }
                .joined(separator: " ")
            if index == long, let limit {
                line = String(repeating: "x", count: limit + 1)
                error = "lineTooLong(\(limit))"
            } else if let limit, line.utf8.count > limit {
                line = "ok"
            }
            if error == nil { lines.append(line) }
            var ends = ["\n", "\r\n", "\r"]
            if line.isEmpty, previousEnd == "\r" { ends = ["\r\n", "\r"] }
            let end = ends.randomElement(using: &random)!
            text += line + end
            previousEnd = end
        }
        return Case(bytes: Array(text.utf8), elements: lines, error: error, seed: seed)
    }

    /// An event stream of `count` events — comments, named events, multi-line data, ids, CR, LF
    /// and CRLF — and, with `limit`, one event at a random place larger than it.
    static func events(seed: UInt64, count: Int, limit: Int?) -> Case<ServerSentEvent> {
        var random = SeededRandom(seed: seed)
        let large = limit.map { _ in Int.random(in: 0..<count, using: &random) } ?? -1
        var text = Bool.random(using: &random) ? "\u{FEFF}" : ""
        var events: [ServerSentEvent] = []
        var error: String?
        var lastID = ""
        for index in 0..<count {
            let end = ["\n", "\r\n", "\r"].randomElement(using: &random)!
            if Bool.random(using: &random) { text += ": comment \(index)" + end }
            let name = Bool.random(using: &random) ? "tick" : nil
            if let name { text += "event: \(name)" + end }
            var data = (0..<Int.random(in: 1...2, using: &random)).map { _ in texts.randomElement(using: &random)! }
            if index == large, let limit {
                data = [String(repeating: "d", count: limit + 1)]
                error = "eventTooLarge(\(limit))"
            }
            for line in data { text += "data: \(line)" + end }
            if Bool.random(using: &random) {
                lastID = "\(index)"
                text += "id: \(index)" + end
            }
            text += end
            if error == nil {
                events.append(
                    ServerSentEvent(
                        event: name ?? "message", data: data.joined(separator: "\n"), id: lastID.isEmpty ? nil : lastID)
                )
            }
        }
        return Case(bytes: Array(text.utf8), elements: events, error: error, seed: seed)
    }

    /// Every cut of `bytes` into two chunks, every chunk of one byte, and `random` random
    /// chunkings (``randomChunkings(of:count:seed:)``).
    static func chunkings(of bytes: [UInt8], random count: Int, seed: UInt64) -> [[[UInt8]]] {
        var result = (0...bytes.count).map { chunks(bytes, cutAt: [$0]) }
        result.append(bytes.map { [$0] })
        return result + randomChunkings(of: bytes, count: count, seed: seed)
    }

    /// `count` chunkings of `bytes`, each cut at up to eight random places.
    static func randomChunkings(of bytes: [UInt8], count: Int, seed: UInt64) -> [[[UInt8]]] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let cuts = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                Int.random(in: 0...bytes.count, using: &random)
            }
            return chunks(bytes, cutAt: cuts.sorted())
        }
    }
}

/// A small, seeded generator (SplitMix64), so that a generated case can be made again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
