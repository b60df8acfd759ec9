/// How `nil` is written, in query strings, form bodies and JSON bodies.
///
/// ```swift
/// @Query("cursor") var cursor: String? = nil                                // (nothing)
/// @Query("cursor", strategy: .init(nils: .empty)) var empty: String? = nil  // cursor=
/// @Query("cursor", strategy: .init(nils: .null)) var null: String? = nil    // cursor=null
/// @JSON("note", strategy: .init(nils: .null)) var note: String? = nil       // {"note":null}
/// ```
///
/// In a query string or a form body the strategy applies to every `nil` the value encodes:
/// the value itself, `nil` elements of an array and members a type encodes with
/// `encodeNil(forKey:)`. (Synthesized `Encodable` skips `nil` members with
/// `encodeIfPresent`, so they are never seen.) In a JSON body it applies to the member
/// itself: `.null` writes `"key":null` — for JSON Merge Patch and JSON PATCH bodies that
/// clear a value — while `.omit` and `.empty` leave the member out, JSON having no empty
/// value; `nil` inside a nested value is written as `JSONEncoder` writes it.
public enum NilEncoding: Hashable, Sendable {
    /// Nothing is sent for `nil`. The default.
    case omit

    /// The key with an empty value: `key=`. A JSON member is omitted.
    case empty

    /// The text `null`: `key=null`; a JSON member is written as `"key":null`.
    case null

    /// The text written for `nil` in a query string or form body, or `nil` to write nothing.
    var text: String? {
        switch self {
        case .omit: nil
        case .empty: ""
        case .null: "null"
        }
    }
}
