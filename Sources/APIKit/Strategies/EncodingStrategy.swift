/// How the values of a query string, form body or JSON body are written: arrays, nested
/// objects, `Bool`, `Date` and `nil`.
///
/// Each member is optional: a strategy states only what it changes. A field's strategy
/// overrides the request's member by member, and what neither states is the default.
///
/// ```swift
/// struct SearchRequest: JSONDecodableRequest, RequestConfiguration {
///     @Query("ids", strategy: .arrays(.brackets)) var ids = [1, 2]                 // ids[]=1&ids[]=2
///     @Query("since") var since = Date(timeIntervalSince1970: 0)                    // since=0 (the request's)
///     @Query("open", strategy: .bools(.literal)) var open = true                     // open=true (the field's)
///     @Query("archived") var archived = false                                        // archived=0
///
///     var encodingStrategy: EncodingStrategy { .dates(.secondsSince1970).bools(.numeric) }
///     // ...
/// }
/// ```
///
/// | member | default | applies to |
/// | --- | --- | --- |
/// | `arrays` | ``ArrayEncoding/repeatKey`` | query, form |
/// | `nesting` | ``NestingEncoding/brackets`` | query, form |
/// | `bools` | ``BoolEncoding/literal`` | query, form, JSON |
/// | `dates` | ``DateEncoding/iso8601`` | query, form, JSON |
/// | `nils` | ``NilEncoding/omit`` | query, form, JSON |
///
/// Headers, ``KeyQuery``, ``QueryDict`` (whose values are strings), path segments and raw or
/// file bodies (``DataBody``, ``FileBody``) are not affected; a whole JSON body (``JSONBody``)
/// takes `dates` and `bools` only.
///
/// Start with a static member and chain the others: `.dates(.secondsSince1970).bools(.numeric)`;
/// that is the one way to write a strategy (its members are not set one by one).
public struct EncodingStrategy: Hashable, Sendable {
    /// How arrays are written; `nil` inherits.
    var arrays: ArrayEncoding?
    /// How nested objects are written; `nil` inherits.
    var nesting: NestingEncoding?
    /// How `Bool` is written; `nil` inherits.
    var bools: BoolEncoding?
    /// How `nil` is written; `nil` inherits.
    var nils: NilEncoding?
    // Last, so that the one-byte members pack before it: the strategy is 16 bytes.
    /// How `Date` is written; `nil` inherits.
    var dates: DateEncoding?

    /// A strategy stating the given members; the others inherit. Users start from a static
    /// member and chain the others instead: one spelling.
    init(
        arrays: ArrayEncoding? = nil,
        nesting: NestingEncoding? = nil,
        bools: BoolEncoding? = nil,
        dates: DateEncoding? = nil,
        nils: NilEncoding? = nil
    ) {
        self.arrays = arrays
        self.nesting = nesting
        self.bools = bools
        self.dates = dates
        self.nils = nils
    }

    /// A strategy that states nothing: a field inherits the request's, a request uses the defaults.
    public static let inherit = EncodingStrategy()

    /// Every member stated, with its default value.
    public static let defaults = EncodingStrategy(
        arrays: .repeatKey,
        nesting: .brackets,
        bools: .literal,
        dates: .iso8601,
        nils: .omit
    )

    /// A strategy stating how arrays are written.
    ///
    /// - Parameter arrays: The array strategy.
    /// - Returns: The strategy.
    public static func arrays(_ arrays: ArrayEncoding) -> EncodingStrategy { EncodingStrategy(arrays: arrays) }

    /// A strategy stating how nested objects are written.
    ///
    /// - Parameter nesting: The nesting strategy.
    /// - Returns: The strategy.
    public static func nesting(_ nesting: NestingEncoding) -> EncodingStrategy { EncodingStrategy(nesting: nesting) }

    /// A strategy stating how `Bool` is written.
    ///
    /// - Parameter bools: The `Bool` strategy.
    /// - Returns: The strategy.
    public static func bools(_ bools: BoolEncoding) -> EncodingStrategy { EncodingStrategy(bools: bools) }

    /// A strategy stating how `Date` is written.
    ///
    /// - Parameter dates: The `Date` strategy.
    /// - Returns: The strategy.
    public static func dates(_ dates: DateEncoding) -> EncodingStrategy { EncodingStrategy(dates: dates) }

    /// A strategy stating how `nil` is written.
    ///
    /// - Parameter nils: The `nil` strategy.
    /// - Returns: The strategy.
    public static func nils(_ nils: NilEncoding) -> EncodingStrategy { EncodingStrategy(nils: nils) }

    /// This strategy, also stating how arrays are written.
    ///
    /// - Parameter arrays: The array strategy.
    /// - Returns: The strategy.
    public func arrays(_ arrays: ArrayEncoding) -> EncodingStrategy { with(\.arrays, arrays) }

    /// This strategy, also stating how nested objects are written.
    ///
    /// - Parameter nesting: The nesting strategy.
    /// - Returns: The strategy.
    public func nesting(_ nesting: NestingEncoding) -> EncodingStrategy { with(\.nesting, nesting) }

    /// This strategy, also stating how `Bool` is written.
    ///
    /// - Parameter bools: The `Bool` strategy.
    /// - Returns: The strategy.
    public func bools(_ bools: BoolEncoding) -> EncodingStrategy { with(\.bools, bools) }

    /// This strategy, also stating how `Date` is written.
    ///
    /// - Parameter dates: The `Date` strategy.
    /// - Returns: The strategy.
    public func dates(_ dates: DateEncoding) -> EncodingStrategy { with(\.dates, dates) }

    /// This strategy, also stating how `nil` is written.
    ///
    /// - Parameter nils: The `nil` strategy.
    /// - Returns: The strategy.
    public func nils(_ nils: NilEncoding) -> EncodingStrategy { with(\.nils, nils) }

    /// This strategy with one member set.
    private func with<Member>(_ member: WritableKeyPath<Self, Member?>, _ value: Member) -> EncodingStrategy {
        var copy = self
        copy[keyPath: member] = value
        return copy
    }

    /// This strategy's members, and `base`'s where this one states none.
    ///
    /// - Parameter base: The strategy to inherit from, such as the request's.
    /// - Returns: The merged strategy.
    func overriding(_ base: EncodingStrategy) -> EncodingStrategy {
        EncodingStrategy(
            arrays: arrays ?? base.arrays,
            nesting: nesting ?? base.nesting,
            bools: bools ?? base.bools,
            dates: dates ?? base.dates,
            nils: nils ?? base.nils
        )
    }

    /// Whether no member is stated.
    var isInherit: Bool {
        arrays == nil && nesting == nil && bools == nil && dates == nil && nils == nil
    }
}
