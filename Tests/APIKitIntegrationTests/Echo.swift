import APIKit

/// What httpbin's `/anything` echoes back about the request it received.
///
/// `Body` is what the `json` member (the request's JSON body, or `null`) decodes to.
struct Echo<Body: Decodable & Sendable>: Decodable, Sendable {
    /// Query arguments, decoded; a repeated key gives a list.
    var args: [String: EchoValue]
    /// The raw request body as text.
    var data: String
    /// Form fields, decoded; a repeated key gives a list.
    var form: [String: EchoValue]
    /// Header names as httpbin writes them (title case); compare with ``header(_:)``.
    var headers: [String: String]
    /// The JSON body, when there was one.
    var json: Body?
    var method: String
    /// The URL as httpbin reconstructs it (it decodes some escapes again).
    var url: String

    /// A header's value, its name compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// A query argument, its key compared scalar by scalar (not by canonical equivalence,
    /// which would hide a normalization of `e\u{301}` into `é`).
    func arg(_ key: String) -> EchoValue? {
        args.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value
    }

    /// A form field, its key compared scalar by scalar.
    func field(_ key: String) -> EchoValue? {
        form.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value
    }
}

/// httpbin's `json` for a request without a JSON body is `null`; nothing is expected.
struct NoJSONBody: Decodable, Sendable {}

/// A query argument or form field as httpbin echoes it: one value, or a list for a repeated key.
enum EchoValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case one(String)
    case many([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let list = try? container.decode([String].self) {
            self = .many(list)
        } else {
            self = .one(try container.decode(String.self))
        }
    }

    /// The single value, or `nil` for a list.
    var single: String? {
        if case .one(let value) = self { return value }
        return nil
    }

    var description: String {
        switch self {
        case .one(let value): value.debugDescription
        case .many(let values): values.description
        }
    }
}

/// The Unicode scalars of a string, for comparisons that `==` (canonical equivalence) would blur.
func scalars(_ text: String?) -> [Unicode.Scalar]? {
    text.map { Array($0.unicodeScalars) }
}
