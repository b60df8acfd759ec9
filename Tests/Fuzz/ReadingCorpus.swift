// Request types and a value generator for comparing the two readings of a configuration: the
// field plan (in place) against the Mirror walk (the reference). Compiled twice: into the APIKit
// module by scripts/fuzz.sh for FieldPlanTarget (with -D APIKIT_FUZZ), and into APIKitTests,
// through a link in Tests/APIKitTests/Description, where ReadingCorpusTests runs it on seeded
// inputs.
//
// Swift cannot make types at run time: the corpus is a fixed set of configuration types that
// together hold every FieldKind, declared fields (users' wrappers, dictionaries, dates, parts,
// whole bodies), a nested configuration and a body conflict; the input chooses the type, every
// key, value and strategy, the path template and the method.

#if !APIKIT_FUZZ
    @testable import APIKit
#endif

/// Reads an input's bytes as choices; past its end, every byte is 0.
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func pick<Choice>(_ choices: [Choice]) -> Choice {
        choices[Int(byte()) % choices.count]
    }

    mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    mutating func maybe<Value>(_ make: (inout FuzzInput) -> Value) -> Value? {
        bool() ? make(&self) : nil
    }

    /// A word of `count` bytes, little-endian.
    private mutating func word(_ count: Int) -> UInt64 {
        (0..<count).reduce(0) { word, shift in word | UInt64(byte()) << (8 * UInt64(shift)) }
    }

    /// Text that tests a rule: reserved and unreserved bytes, non-ASCII, controls, quotes; or
    /// up to 11 arbitrary bytes (invalid UTF-8 becomes U+FFFD, as in any `String`).
    mutating func string() -> String {
        let choice = byte()
        guard choice < 200 else {
            return String(decoding: (0..<Int(choice - 200) % 12).map { _ in byte() }, as: UTF8.self)
        }
        return pick([
            "", "a", "a b", "&=?#", "caf\u{E9} \u{1F600}", "\"q\"\\", "line\r\nbreak", "%20", "+", "\u{0}", "tab\there",
            "/..", "{id}", "~-._", String(repeating: "x", count: 40), "[]", ",", "null",
        ])
    }

    /// Mostly `usual`, a key that makes a valid request; else another key or header name:
    /// a common one (so that keys collide), a framing or implied header, an invalid one, or
    /// arbitrary text.
    mutating func key(usually usual: String) -> String {
        guard byte() >= 224 else { return usual }
        return byte() < 230
            ? pick([
                "k", "q", "id", "name", "a b", "x&y=z", "caf\u{E9}", "", "Content-Type", "Accept", "X-Custom", "accept",
                "Content-Length", "bad name", "X\r\nY", "%41", "+", "k[]", "a.b",
            ]) : string()
    }

    mutating func int() -> Int {
        bool() ? pick([0, -1, 1, 42, Int.max, Int.min, 1_000_000]) : Int(truncatingIfNeeded: word(8))
    }

    mutating func double() -> Double {
        bool()
            ? pick([0, -0.0, 0.1, 1.5, -2, 1e300, .leastNonzeroMagnitude, .nan, .infinity, -.infinity])
            : Double(bitPattern: word(8))
    }

    mutating func date() -> Date {
        Date(
            timeIntervalSince1970: bool()
                ? pick([0, -1, 1.5, 1e10, -1e12]) : Double(Int32(truncatingIfNeeded: word(4))))
    }

    mutating func strings() -> [String] {
        (0..<Int(byte() % 4)).map { _ in string() }
    }

    /// A strategy stating some members, with every value each member has but `.custom`.
    mutating func strategy() -> EncodingStrategy {
        EncodingStrategy(
            arrays: maybe { $0.pick([.repeatKey, .brackets, .indexed, .commaSeparated]) },
            nesting: maybe { $0.pick([.brackets, .dotted]) },
            bools: maybe { $0.pick([.literal, .numeric]) },
            dates: maybe {
                $0.pick([.iso8601, .iso8601WithFractionalSeconds, .secondsSince1970, .millisecondsSince1970])
            },
            nils: maybe { $0.pick([.omit, .empty, .null]) }
        )
    }
}

/// The configuration types, the request around them, and the comparison.
enum ReadingCorpus {
    /// A configuration whose every key, value and strategy comes from the input.
    protocol Configuration: RequestConfiguration, Sendable {
        /// The path templates a request of this type is sent to, the first the one that fits.
        static var templates: [String] { get }
        init(_ input: inout FuzzInput)
    }

    /// A user's wrapper that declares a header and a query item.
    struct UserWrapper: HeaderProtocol, QueryProtocol, Sendable {
        var name: String
        var value: String?
        var headerFields: [HeaderField] { value.map { [HeaderField(name: name, value: $0)] } ?? [] }
        var queryParameters: [QueryParameter] { [QueryParameter(key: name, value: value)] }
    }

    struct Headers: Configuration {
        static let templates = ["items", "{id}"]
        @Header var first: String?
        @Header var second: String?
        @HeaderDict var extra: [String: String]
        var user: UserWrapper

        init(_ input: inout FuzzInput) {
            _first = Header(wrappedValue: input.maybe { $0.string() }, input.key(usually: "X-First"))
            _second = Header(wrappedValue: input.maybe { $0.string() }, input.key(usually: "Accept"))
            _extra = HeaderDict(wrappedValue: input.bool() ? [input.key(usually: "X-Extra"): input.string()] : [:])
            user = UserWrapper(name: input.key(usually: "X-User"), value: input.maybe { $0.string() })
        }
    }

    struct Queries: Configuration {
        static let templates = ["items", "{id}"]
        @Query var string: String
        @Query var int: Int
        @Query var bool: Bool
        @Query var strings: [String]
        @Query var optionalString: String?
        @Query var optionalInt: Int?
        @Query var optionalBool: Bool?
        @Query var date: Date
        @Query var double: Double
        @QueryDict var dictionary: [String: String]?
        @KeyQuery var flag: Bool

        init(_ input: inout FuzzInput) {
            _string = Query(wrappedValue: input.string(), input.key(usually: "s"), strategy: input.strategy())
            _int = Query(wrappedValue: input.int(), input.key(usually: "i"))
            _bool = Query(wrappedValue: input.bool(), input.key(usually: "b"), strategy: input.strategy())
            _strings = Query(wrappedValue: input.strings(), input.key(usually: "tags"), strategy: input.strategy())
            _optionalString = Query(
                wrappedValue: input.maybe { $0.string() }, input.key(usually: "os"), strategy: input.strategy())
            _optionalInt = Query(
                wrappedValue: input.maybe { $0.int() }, input.key(usually: "oi"), strategy: input.strategy())
            _optionalBool = Query(
                wrappedValue: input.maybe { $0.bool() }, input.key(usually: "ob"), strategy: input.strategy())
            _date = Query(wrappedValue: input.date(), input.key(usually: "since"), strategy: input.strategy())
            _double = Query(wrappedValue: input.double(), input.key(usually: "ratio"))
            _dictionary = QueryDict(wrappedValue: input.maybe { [$0.key(usually: "d"): $0.string()] })
            _flag = KeyQuery(wrappedValue: input.bool(), input.key(usually: "flag"))
        }
    }

    /// A value encoded through `Encodable`: nested objects and arrays.
    struct Nested: Encodable, Sendable {
        var name: String
        var values: [Int]
        var child: [String: Double]?
    }

    struct JSONMembers: Configuration {
        static let templates = ["items", "{id}"]
        @JSON var string: String
        @JSON var int: Int
        @JSON var bool: Bool
        @JSON var double: Double
        @JSON var optionalString: String?
        @JSON var optionalInt: Int?
        @JSON var optionalBool: Bool?
        @JSON var optionalDouble: Double?
        @JSON var optionalStrings: [String]?
        @JSON var date: Date
        @JSON var nested: Nested
        /// A header beside the body, which may declare its Content-Type.
        @Header var header: String?

        init(_ input: inout FuzzInput) {
            _header = Header(
                wrappedValue: input.maybe { $0.string() }, input.key(usually: input.bool() ? "X-Trace" : "Content-Type")
            )
            _string = JSON(wrappedValue: input.string(), input.key(usually: "s"))
            _int = JSON(wrappedValue: input.int(), input.key(usually: "i"))
            _bool = JSON(wrappedValue: input.bool(), input.key(usually: "b"), strategy: input.strategy())
            _double = JSON(wrappedValue: input.double(), input.key(usually: "d"))
            _optionalString = JSON(
                wrappedValue: input.maybe { $0.string() }, input.key(usually: "os"), strategy: input.strategy())
            _optionalInt = JSON(
                wrappedValue: input.maybe { $0.int() }, input.key(usually: "oi"), strategy: input.strategy())
            _optionalBool = JSON(
                wrappedValue: input.maybe { $0.bool() }, input.key(usually: "ob"), strategy: input.strategy())
            _optionalDouble = JSON(
                wrappedValue: input.maybe { $0.double() }, input.key(usually: "od"), strategy: input.strategy())
            _optionalStrings = JSON(
                wrappedValue: input.maybe { $0.strings() }, input.key(usually: "tags"), strategy: input.strategy())
            _date = JSON(wrappedValue: input.date(), input.key(usually: "at"), strategy: input.strategy())
            let nested = Nested(
                name: input.string(), values: [input.int(), input.int()],
                child: input.maybe { [$0.key(usually: "c"): $0.double()] })
            _nested = JSON(wrappedValue: nested, input.key(usually: "nested"), strategy: input.strategy())
        }
    }

    struct FormFields: Configuration {
        static let templates = ["items", "{id}"]
        @Field var string: String
        @Field var int: Int
        @Field var bool: Bool
        @Field var optionalString: String?
        @Field var optionalInt: Int?
        @Field var double: Double
        @Field var strings: [String]
        @Header var header: String?

        init(_ input: inout FuzzInput) {
            _header = Header(
                wrappedValue: input.maybe { $0.string() }, input.key(usually: input.bool() ? "content-type" : "Accept"))
            _string = Field(wrappedValue: input.string(), input.key(usually: "s"))
            _int = Field(wrappedValue: input.int(), input.key(usually: "i"), strategy: input.strategy())
            _bool = Field(wrappedValue: input.bool(), input.key(usually: "b"), strategy: input.strategy())
            _optionalString = Field(
                wrappedValue: input.maybe { $0.string() }, input.key(usually: "os"), strategy: input.strategy())
            _optionalInt = Field(
                wrappedValue: input.maybe { $0.int() }, input.key(usually: "oi"), strategy: input.strategy())
            _double = Field(wrappedValue: input.double(), input.key(usually: "d"))
            _strings = Field(wrappedValue: input.strings(), input.key(usually: "tags"), strategy: input.strategy())
        }
    }

    /// Path segments of which one is declared (a `Date`): none is read in place.
    struct Paths: Configuration {
        static let templates = ["{name}/{id}/{day}", "items/{id}", "{name}/{id}", "a/{id}/{id}"]
        @PathSegment var string: String
        @PathSegment var int: Int
        @PathSegment var date: Date?

        init(_ input: inout FuzzInput) {
            _string = PathSegment(wrappedValue: input.string(), input.key(usually: "name"))
            _int = PathSegment(wrappedValue: input.int(), input.key(usually: "id"))
            _date = PathSegment(wrappedValue: input.maybe { $0.date() }, input.key(usually: "day"))
        }
    }

    /// Path segments that are all read in place.
    struct InPlacePaths: Configuration {
        static let templates = ["{name}/{id}", "items/{id}", "{id}/{name}/{missing}", "{name}"]
        @PathSegment var string: String
        @PathSegment var int: Int

        init(_ input: inout FuzzInput) {
            _string = PathSegment(wrappedValue: input.string(), input.key(usually: "name"))
            _int = PathSegment(wrappedValue: input.int(), input.key(usually: "id"))
        }
    }

    struct Inner: RequestConfiguration, Sendable {
        @Header var header: String?
        @Query var query: Int?
    }

    /// A nested configuration, multipart parts and a path segment.
    struct Mixed: Configuration {
        static let templates = ["items/{id}", "items"]
        @Query var query: String
        var inner: Inner
        @Part var text: String?
        @Part var number: Int
        @PathSegment var segment: String

        init(_ input: inout FuzzInput) {
            _query = Query(wrappedValue: input.string(), input.key(usually: "q"))
            inner = Inner(
                header: Header(wrappedValue: input.maybe { $0.string() }, input.key(usually: "X-Inner")),
                query: Query(wrappedValue: input.maybe { $0.int() }, input.key(usually: "page")))
            _text = Part(wrappedValue: input.maybe { $0.string() }, input.key(usually: "text"))
            _number = Part(wrappedValue: input.int(), input.key(usually: "number"), strategy: input.strategy())
            _segment = PathSegment(wrappedValue: input.string(), input.key(usually: "id"))
        }
    }

    /// A whole JSON body beside a header.
    struct WholeBody: Configuration {
        static let templates = ["items"]
        @Header var header: String?
        @JSONBody var whole: [String: Int]?

        init(_ input: inout FuzzInput) {
            _header = Header(wrappedValue: input.maybe { $0.string() }, input.key(usually: "X-Whole"))
            _whole = JSONBody(wrappedValue: input.maybe { [$0.key(usually: "k"): $0.int()] })
        }
    }

    /// A JSON member and a form field, which conflict: the error is compared.
    struct Conflicting: Configuration {
        static let templates = ["items"]
        @JSON var json: Bool?
        @Field var form: String?

        init(_ input: inout FuzzInput) {
            _json = JSON(wrappedValue: input.maybe { $0.bool() }, input.key(usually: "j"))
            _form = Field(wrappedValue: input.maybe { $0.string() }, input.key(usually: "f"))
        }
    }

    /// A request around one configuration.
    struct FuzzRequest<Configuration: RequestConfiguration & Sendable>: Request {
        var base = URL(string: "https://api.example.com/v1")!
        var path: String
        var method: HTTPMethod
        var configuration: Configuration
        var encodingStrategy: EncodingStrategy
        var parser: RawDataParser { RawDataParser() }
    }

    /// The configuration types, each with a name for messages.
    static let types: [(name: String, type: any Configuration.Type)] = [
        ("Headers", Headers.self), ("Queries", Queries.self), ("JSONMembers", JSONMembers.self),
        ("FormFields", FormFields.self), ("Paths", Paths.self), ("InPlacePaths", InPlacePaths.self),
        ("Mixed", Mixed.self), ("WholeBody", WholeBody.self), ("Conflicting", Conflicting.self),
    ]

    /// The cached plan of `Value`, made, when it is first asked for, from the value of a fixed
    /// input (the bytes 0 to 255): the sample whose keys a plan checks once.
    static func plan<Value: Configuration>(for _: Value.Type) -> FieldPlan? {
        var sample = FuzzInput(Array(0...255))
        return FieldPlan.plan(for: Value(&sample))
    }

    /// What one request built from `bytes` gives read both ways (``outcome(of:reading:)``), and
    /// the name of its configuration type.
    static func outcomes(for bytes: [UInt8]) -> (type: String, planned: String, mirrored: String) {
        var input = FuzzInput(bytes)
        let chosen = input.pick(types)
        return outcomes(chosen.type, named: chosen.name, input: &input)
    }

    /// How the two readings of the request built from `bytes` differ; `nil` when they give the
    /// same bytes or the same error.
    static func difference(for bytes: [UInt8]) -> String? {
        let outcomes = outcomes(for: bytes)
        guard outcomes.planned != outcomes.mirrored else { return nil }
        return "\(outcomes.type): plan \(outcomes.planned), Mirror \(outcomes.mirrored)"
    }

    private static func outcomes<Value: Configuration>(
        _: Value.Type,
        named name: String,
        input: inout FuzzInput
    ) -> (type: String, planned: String, mirrored: String) {
        // The plan is made from the same value whatever ran before: an input replays alone.
        _ = plan(for: Value.self)
        let request = FuzzRequest(
            // Mostly the template that fits, and a method that takes a body.
            path: input.byte() < 192 ? Value.templates[0] : input.pick(Value.templates + ["{x}", "{id}/{id}"]),
            method: input.byte() < 192
                ? input.pick([.post, .put, .patch]) : input.pick([.get, .delete, .head, HTTPMethod(rawValue: "BREW")]),
            configuration: Value(&input),
            encodingStrategy: input.strategy()
        )
        return (
            "\(name) \(request.method) \(request.path)", outcome(of: request, reading: .automatic),
            outcome(of: request, reading: .mirror)
        )
    }

    /// What a request is built into, as text that compares everything sent: URL, method,
    /// headers in name order, body bytes; or the error. A multipart boundary, random in each
    /// build, is written as `BOUNDARY` (``masked(_:)``).
    private static func outcome<Value: Configuration>(
        of request: FuzzRequest<Value>,
        reading: ParameterCollector.Reading
    ) -> String {
        do {
            let built = try request.encodedURLRequest(reading: reading)
            let headers = (built.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map {
                ($0.key, String(decoding: masked(Array($0.value.utf8)), as: UTF8.self))
            }
            let body = masked(body(of: built).map(Array.init) ?? [])
            return "\(built.url?.absoluteString ?? "no URL") \(built.httpMethod ?? "no method") \(headers) \(body)"
        } catch {
            return "error \(error)"
        }
    }

    /// `bytes` with every multipart boundary — `APIKit-` and 32 letters or digits, as
    /// `MultipartBoundary` makes them — replaced by `BOUNDARY`. No text of the corpus is one.
    private static func masked(_ bytes: [UInt8]) -> [UInt8] {
        let prefix = Array("APIKit-".utf8)
        let length = prefix.count + 32
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + length <= bytes.count, bytes[index...].starts(with: prefix),
                bytes[(index + prefix.count)..<(index + length)].allSatisfy(isAlphanumeric)
            {
                result += Array("BOUNDARY".utf8)
                index += length
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// The body bytes as they would be sent: `httpBody`, or all that `httpBodyStream` yields.
    private static func body(of request: URLRequest) -> Data? {
        if let httpBody = request.httpBody { return httpBody }
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}
