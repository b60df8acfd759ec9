import APIKit
import APIKitTestSupport
import Testing

/// Generates awkward text: every Unicode plane, combining marks, emoji sequences, reserved
/// URL characters, empty strings, leading and trailing spaces, long values.
struct AwkwardText {
    var generator: SeededGenerator

    static let pieces: [String] = [
        "a", "Z", "0", "-", "_", ".", "~", " ", "  ", "\t",
        "!", "#", "$", "&", "'", "(", ")", "*", "+", ",", "/", ":", ";", "=", "?", "@", "[", "]", "%", "%20", "%zz",
        "\"", "<", ">", "\\", "^", "`", "{", "|", "}",
        "é", "e\u{301}", "\u{301}", "ñ", "ß", "Ω", "東京", "日本語", "한국어", "العربية", "עברית", "हिन्दी",
        "😀", "👩‍👩‍👧‍👦", "🇯🇵", "👍🏽", "🏳️‍🌈", "\u{1F9D1}\u{200D}\u{1F4BB}",
        "\u{10000}", "\u{1D11E}", "\u{20000}", "\u{2F800}", "\u{E0041}", "\u{F0000}", "\u{10FFFD}",
        "\u{FEFF}", "\u{200B}", "\u{FFFD}", "\u{7F}", "\u{1}", "\u{1F}", "\n", "\r\n",
    ]

    mutating func next(maxPieces: Int = 12, allowControl: Bool = true) -> String {
        switch Int.random(in: 0..<20, using: &generator) {
        case 0: return ""
        case 1: return " " + next(maxPieces: maxPieces, allowControl: allowControl) + " "
        default:
            let count = Int.random(in: 1...maxPieces, using: &generator)
            var text = ""
            for _ in 0..<count {
                let piece = Self.pieces.randomElement(using: &generator)!
                if !allowControl, piece.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    continue
                }
                text += piece
            }
            return text
        }
    }

    /// Text a header value may hold: visible ASCII with single inner spaces.
    mutating func headerValue() -> String {
        let count = Int.random(in: 1...40, using: &generator)
        var text = ""
        for index in 0..<count {
            if index > 0, index < count - 1, Int.random(in: 0..<6, using: &generator) == 0 {
                text += " "
            } else {
                text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &generator)))
            }
        }
        return text
    }
}

/// Many body fields of one kind from one property.
struct GeneratedFields: BodyProtocol, Sendable {
    var pairs: [(key: String, value: String)]
    var encoding: BodyEncoding
    var bodyParameters: [BodyParameter] {
        pairs.map { BodyParameter(key: $0.key, value: $0.value, encoding: encoding) }
    }
}

struct GeneratedQueryRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>
    @QueryDict var items: [String: String]? = nil
    @HeaderDict var headers: [String: String] = [:]
    var base = HTTPBin.baseURL
    var path = "anything/generated"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

struct GeneratedBodyRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<[String: String]>
    var fields: GeneratedFields
    var base = HTTPBin.baseURL
    var path = "anything/generated"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

struct GeneratedFormRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>
    var fields: GeneratedFields
    var base = HTTPBin.baseURL
    var path = "anything/generated"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

struct GeneratedPathRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>
    @PathSegment("value") var value = ""
    var base = HTTPBin.baseURL
    var path = "anything/p/{value}/end"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// Values that did not come back exactly, with the seed to replay them.
final class Mismatches: Sendable {
    let list = Protected<[String]>([])
    func add(_ text: String) { list.withLock { if $0.count < 20 { $0.append(text) } } }
    var all: [String] { list.withLock { $0 } }
}

@Suite("Generated values round-trip byte-exact through httpbin", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct GeneratedRoundTripTests {
    static let seed =
        UInt64(ProcessInfo.processInfo.environment["APIKIT_ROUNDTRIP_SEED"] ?? "")
        ?? UInt64.random(in: 0...UInt64.max)

    /// The text between `/anything/p/` and `/end` of a URL, percent-decoded, found byte by
    /// byte: a value that starts with a combining mark would merge with the `/` before it into
    /// one `Character`, and Foundation's `removingPercentEncoding` drops a leading BOM.
    static func segment(of url: String) -> String? {
        let bytes = Array(url.utf8)
        let start = Array("/anything/p/".utf8)
        let end = Array("/end".utf8)
        guard
            let from = (0...(bytes.count - start.count)).first(where: { Array(bytes[$0..<$0 + start.count]) == start }),
            let to = (0...(bytes.count - end.count)).last(where: { Array(bytes[$0..<$0 + end.count]) == end }),
            to >= from + start.count
        else { return nil }
        var decoded: [UInt8] = []
        var index = from + start.count
        while index < to {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < to,
                let byte = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                decoded.append(byte)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    func same(_ a: String?, _ b: String) -> Bool {
        a.map { Array($0.unicodeScalars) == Array(b.unicodeScalars) } ?? false
    }

    @Test("≥10,000 generated keys and values through @QueryDict, @HeaderDict, form, JSON, multipart and @PathSegment")
    func roundTrips() async throws {
        var text = AwkwardText(generator: SeededGenerator(seed: Self.seed))
        let mismatches = Mismatches()
        var checked = 0
        var serial = 0
        func uniqueKey(_ text: inout AwkwardText) -> String {
            serial += 1
            return text.next(maxPieces: 4, allowControl: false) + "~\(serial)"
        }

        // Query: batches kept under gunicorn's 4,094-byte request line.
        for _ in 0..<80 {
            var items: [String: String] = [:]
            var length = 0
            while length < 2_500 {
                let key = uniqueKey(&text)
                let value = text.next(maxPieces: 6)
                items[key] = value
                length += (key.utf8.count + value.utf8.count) * 3 + 2
            }
            var headers: [String: String] = [:]
            for index in 0..<12 { headers["X-Generated-\(index)"] = text.headerValue() }
            let echo = try await perform(GeneratedQueryRequest(items: items, headers: headers)).get()
            for (key, value) in items where !same(echo.arg(key)?.single, value) {
                mismatches.add(
                    "query \(key.debugDescription)=\(value.debugDescription) came back as \(String(describing: echo.arg(key)))"
                )
            }
            for (name, value) in headers where echo.header(name) != value {
                mismatches.add(
                    "header \(name): \(value.debugDescription) came back as \(String(describing: echo.header(name)))")
            }
            checked += items.count * 2 + headers.count
        }

        // Form, JSON and multipart bodies: long values too.
        for (kind, batches) in [(BodyEncoding.formURLEncoded, 10), (.json, 10), (.multipart, 6)] {
            for _ in 0..<batches {
                var pairs: [(key: String, value: String)] = []
                for index in 0..<100 {
                    let key = kind == .multipart ? "part\(serial)-\(index)" : uniqueKey(&text)
                    let value = index % 25 == 0 ? String(repeating: text.next(), count: 50) : text.next()
                    pairs.append((key, value))
                }
                let fields = GeneratedFields(pairs: pairs, encoding: kind)
                if kind == .json {
                    let echo = try await perform(GeneratedBodyRequest(fields: fields)).get()
                    for pair in pairs
                    where !same(echo.json?.first(where: { same($0.key, pair.key) })?.value, pair.value) {
                        mismatches.add("json \(pair.key.debugDescription): \(pair.value.debugDescription)")
                    }
                } else {
                    let echo = try await perform(GeneratedFormRequest(fields: fields)).get()
                    for pair in pairs where !same(echo.field(pair.key)?.single, pair.value) {
                        mismatches.add(
                            "\(kind) \(pair.key.debugDescription)=\(pair.value.debugDescription) came back as \(String(describing: echo.field(pair.key)))"
                        )
                    }
                }
                checked += pairs.count * (kind == .multipart ? 1 : 2)
            }
        }

        // Path segments: one per request.
        for _ in 0..<150 {
            let value = text.next(maxPieces: 5, allowControl: false)  // control characters are refused by design
            let request = GeneratedPathRequest(value: value)
            let result = try await perform(request)
            if value.isEmpty || value == "." || value == ".." {
                #expect(result.failure?.stage == .build, "path value \(value.debugDescription) must be refused")
                continue
            }
            let echo = try result.get()
            // What was sent: the segment, percent-decoded, is the value.
            let sent = try request.makeURLRequest().url?.absoluteString ?? ""
            if !same(Self.segment(of: sent), value) {
                mismatches.add("path \(value.debugDescription) was sent as \(sent.debugDescription)")
            }
            // What arrived: httpbin echoes the URL re-quoted by werkzeug, which leaves a
            // decoded `%` as it is, so only values without `%` can be read back from it.
            if !value.contains("%"), !same(Self.segment(of: echo.url), value) {
                mismatches.add("path \(value.debugDescription) came back as \(echo.url.debugDescription)")
            }
            checked += 1
        }

        #expect(checked >= 10_000, "only \(checked) values checked")
        #expect(
            mismatches.all.isEmpty,
            "seed \(Self.seed) (replay with APIKIT_ROUNDTRIP_SEED=\(Self.seed)): \(mismatches.all.joined(separator: "\n"))"
        )
        print("GeneratedRoundTripTests: \(checked) keys and values round-tripped, seed \(Self.seed)")
    }
}
