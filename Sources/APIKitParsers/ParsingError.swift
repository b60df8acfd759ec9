/// An error a built-in ``Parser`` throws when it cannot read a response body.
///
/// A `ParsingError` is plain data: it says which parser failed (``parser``),
/// why (``reason``), where in a decoded document the failure happened
/// (``codingPath``), how long the body was (``bodyLength``) and what its first
/// bytes were (``bodyPrefix``). The error that caused it, such as the
/// `DecodingError` thrown by `JSONDecoder`, is kept in ``underlyingError``.
///
/// ``description`` (and so `localizedDescription` and string interpolation)
/// names the parser, the reason, the coding path and the body's length, but
/// never the body's values: a body may hold tokens or personal data that must
/// not reach logs by accident (a key the reason names — a coding path, a key
/// found twice — is shown, escaped). Read ``bodyPrefix`` explicitly when you
/// want to see the bytes.
///
/// ```swift
/// do {
///     let user = try JSONParser<User>().parse(data: body)
///     print(user.name)
/// } catch let error as ParsingError {
///     print(error)
///     // JSONParser<User> could not parse the response body (57 bytes):
///     // type mismatch, expected Int, at coding path ["items", "Index 1", "id"]
///     if case .typeMismatch = error.reason {
///         print(String(decoding: error.bodyPrefix, as: UTF8.self))
///     }
/// }
/// ```
public struct ParsingError: Error, Sendable, CustomStringConvertible {
    /// Why a parser rejected a body.
    ///
    /// New parsers may bring new reasons; give a `switch` over them a
    /// `default` case so that it keeps compiling.
    public enum Reason: Sendable, Equatable {
        /// The body is empty, and the parser needs content.
        case emptyBody
        /// The body is not syntactically valid JSON.
        case invalidJSON
        /// A value has a different type than the decoded type expects.
        ///
        /// - Parameter expected: The name of the type the decoder expected,
        ///   such as `"Int"`.
        case typeMismatch(expected: String)
        /// A non-optional value is `null` or missing.
        ///
        /// - Parameter expected: The name of the type the decoder expected.
        case valueNotFound(expected: String)
        /// An object lacks a key the decoded type requires.
        ///
        /// - Parameter key: The missing key, as it would appear in the body.
        case keyNotFound(String)
        /// A value is present and of the right kind but unusable, such as a
        /// date string that does not match the decoder's date format.
        case dataCorrupted
        /// The body's bytes are not valid text in the parser's encoding.
        ///
        /// - Parameter encoding: The encoding's name, such as `"UTF-8"` or
        ///   `"ISO-8859-1"`.
        case invalidTextEncoding(String)
        /// The body is not well-formed `application/x-www-form-urlencoded`
        /// data.
        ///
        /// - Parameter problem: What is wrong and where, such as
        ///   `invalid percent-escape "%zz" in key 3`; the position counts the
        ///   body's `&`-separated segments from 1.
        case malformedFormData(String)
        /// A key occurs more than once where duplicates are not allowed.
        ///
        /// - Parameter key: The repeated key.
        case duplicateKey(String)
    }

    /// The number of leading body bytes a `ParsingError` keeps in
    /// ``bodyPrefix``.
    static let bodyPrefixLimit = 128

    /// Why the body was rejected.
    public let reason: Reason

    /// The name of the parser's type, such as `"JSONParser<User>"`.
    public let parser: String

    /// Where in the decoded document the failure happened, outermost key
    /// first; empty when the failure is not tied to a position.
    ///
    /// Each element is a coding key's `stringValue`; array positions read
    /// `"Index 2"`, as in `["items", "Index 2", "name"]`. For a
    /// ``Reason/keyNotFound(_:)`` error the path leads to the object that
    /// lacks the key, and the key itself is in the reason.
    public let codingPath: [String]

    /// The first bytes of the body, at most 128 of them.
    ///
    /// These bytes may contain secrets; they are deliberately left out of
    /// ``description``.
    public let bodyPrefix: Data

    /// The length of the whole body, in bytes.
    public let bodyLength: Int

    /// The error that caused this one, if any, such as the `DecodingError`
    /// thrown by `JSONDecoder`.
    public let underlyingError: (any Error)?

    /// Creates an error for a rejected body, keeping a copy of its first
    /// ``bodyPrefixLimit`` bytes.
    ///
    /// The prefix is copied into its own buffer, so the error neither keeps
    /// a large body alive nor inherits a slice's non-zero start index.
    ///
    /// - Parameters:
    ///   - reason: Why the body was rejected.
    ///   - parser: The type of the parser that rejected it.
    ///   - codingPath: Where in the decoded document the failure happened.
    ///   - body: The whole body.
    ///   - underlyingError: The error that caused this one, if any.
    init(
        _ reason: Reason,
        parser: Any.Type,
        codingPath: [String] = [],
        body: Data,
        underlyingError: (any Error)? = nil
    ) {
        self.reason = reason
        self.parser = String(describing: parser)
        self.codingPath = codingPath
        self.bodyPrefix = body.prefix(Self.bodyPrefixLimit).withUnsafeBytes { Data($0) }
        self.bodyLength = body.count
        self.underlyingError = underlyingError
    }

    /// The readable form of a coding path, for ``codingPath``.
    ///
    /// Each key's `stringValue` is used as is: `JSONDecoder` names array
    /// positions `"Index 2"` already, and a key with an integer value that
    /// stands for an object member (an `Int`-keyed dictionary's `"5"`, or a
    /// `CodingKeys` enum backed by `Int`) reads best by its name. Only a key
    /// without a name falls back to `"Index N"`.
    ///
    /// - Parameter keys: A coding path, outermost key first.
    /// - Returns: The keys' names.
    static func codingPath(from keys: [any CodingKey]) -> [String] {
        keys.map { key in
            if key.stringValue.isEmpty, let index = key.intValue {
                return "Index \(index)"
            }
            return key.stringValue
        }
    }

    /// A one-line account of the failure: the parser, the reason, the coding
    /// path if any and the body's length.
    ///
    /// The body's bytes are never part of the description; see
    /// ``bodyPrefix``.
    public var description: String {
        let length = bodyLength == 1 ? "1 byte" : "\(bodyLength) bytes"
        var text = "\(parser) could not parse the response body (\(length)): \(reason.summary)"
        if !codingPath.isEmpty {
            text += ", at coding path \(codingPath)"
        }
        return text
    }
}

extension ParsingError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? {
        description
    }
}

extension ParsingError.Reason {
    /// A short human-readable phrase for the reason, used in descriptions.
    var summary: String {
        switch self {
        case .emptyBody:
            "the body is empty"
        case .invalidJSON:
            "the body is not valid JSON"
        case .typeMismatch(let expected):
            "type mismatch, expected \(expected)"
        case .valueNotFound(let expected):
            "value not found, expected \(expected)"
        case .keyNotFound(let key):
            "key \(key.debugDescription) not found"
        case .dataCorrupted:
            "the data is corrupted"
        case .invalidTextEncoding(let encoding):
            "the body is not valid \(encoding) text"
        case .malformedFormData(let problem):
            "malformed form data: \(problem)"
        case .duplicateKey(let key):
            "duplicate key \(key.debugDescription)"
        }
    }
}
