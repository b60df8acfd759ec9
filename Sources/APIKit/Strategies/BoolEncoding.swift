/// How a `Bool` is written, in query strings, form bodies and JSON bodies.
///
/// ```swift
/// @Query("active") var active = true                                     // active=true
/// @Query("active", strategy: .bools(.numeric)) var numeric = true        // active=1
/// @JSON("active", strategy: .bools(.numeric)) var json = true            // {"active":1}
/// ```
///
/// The strategy applies to every `Bool` in the value, nested ones and array elements too.
public struct BoolEncoding: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case literal
        case numeric
    }

    let kind: Kind

    /// `true` and `false`; in JSON, the literals `true` and `false`. The default.
    public static let literal = BoolEncoding(kind: .literal)

    /// `1` and `0`; in JSON, the numbers `1` and `0`.
    public static let numeric = BoolEncoding(kind: .numeric)

    /// The strategy's name: `"literal"` or `"numeric"`.
    public var description: String {
        switch kind {
        case .literal: "literal"
        case .numeric: "numeric"
        }
    }

    /// The text of `value`.
    func text(_ value: Bool) -> String {
        switch kind {
        case .literal: value ? "true" : "false"
        case .numeric: value ? "1" : "0"
        }
    }

    /// Appends the text of `value`, from constant bytes: no string is made, and no byte needs
    /// percent-encoding.
    func appendText(_ value: Bool, to output: inout [UInt8]) {
        let text: StaticString =
            switch kind {
            case .literal: value ? "true" : "false"
            case .numeric: value ? "1" : "0"
            }
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }
}
