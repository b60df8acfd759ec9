/// How a `Bool` is written, in query strings, form bodies and JSON bodies.
///
/// ```swift
/// @Query("active") var active = true                                     // active=true
/// @Query("active", strategy: .init(bools: .numeric)) var numeric = true  // active=1
/// @JSON("active", strategy: .init(bools: .numeric)) var json = true      // {"active":1}
/// ```
///
/// The strategy applies to every `Bool` in the value, nested ones and array elements too.
public enum BoolEncoding: Hashable, Sendable {
    /// `true` and `false`; in JSON, the literals `true` and `false`. The default.
    case literal

    /// `1` and `0`; in JSON, the numbers `1` and `0`.
    case numeric

    /// The text of `value`.
    func text(_ value: Bool) -> String {
        switch self {
        case .literal: value ? "true" : "false"
        case .numeric: value ? "1" : "0"
        }
    }

    /// Appends the text of `value`, from constant bytes: no string is made, and no byte needs
    /// percent-encoding.
    func appendText(_ value: Bool, to output: inout [UInt8]) {
        let text: StaticString =
            switch self {
            case .literal: value ? "true" : "false"
            case .numeric: value ? "1" : "0"
            }
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }
}
