/// How the values of a query string, form body or JSON body are written: arrays, nested
/// objects, `Bool`, `Date` and `nil`.
///
/// Each member is optional: a strategy states only what it changes. A field's strategy
/// overrides the request's member by member, and what neither states is the default.
///
/// ```swift
/// struct SearchRequest: JSONDecodableRequest, RequestConfiguration {
///     @Query("ids", strategy: .init(arrays: .brackets)) var ids = [1, 2]  // ids[]=1&ids[]=2
///     @Query("since") var since = Date(timeIntervalSince1970: 0)          // since=0 (the request's)
///     @Query("open", strategy: .init(bools: .literal)) var open = true    // open=true (the field's)
///     @Query("archived") var archived = false                             // archived=0
///
///     var encodingStrategy: EncodingStrategy { .init(bools: .numeric, dates: .secondsSince1970) }
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
/// Write one with its initializer, naming the members it states:
/// `EncodingStrategy(bools: .numeric, dates: .secondsSince1970)`, or `.init(arrays: .brackets)`
/// where the type is known — the one way to write a strategy (its members are not set one by
/// one), like every other configuration value of APIKit.
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

    /// A strategy stating the given members; the others inherit.
    ///
    /// ```swift
    /// @Query("ids", strategy: .init(arrays: .brackets)) var ids = [1, 2]   // ids[]=1&ids[]=2
    /// var encodingStrategy: EncodingStrategy { .init(bools: .numeric, dates: .secondsSince1970) }
    /// ```
    ///
    /// - Parameters:
    ///   - arrays: How arrays are written; `nil` inherits.
    ///   - nesting: How nested objects are written; `nil` inherits.
    ///   - bools: How `Bool` is written; `nil` inherits.
    ///   - dates: How `Date` is written; `nil` inherits.
    ///   - nils: How `nil` is written; `nil` inherits.
    public init(
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
