/// How the members of an object (a struct or a dictionary) are written into a query string
/// or a form body.
///
/// ```swift
/// struct Filter: Encodable { var status = "open"; var owner = "me" }
///
/// @Query("filter") var filter = Filter()                                     // filter[status]=open&filter[owner]=me
/// @Query("filter", strategy: .init(nesting: .dotted)) var dotted = Filter()  // filter.status=open&filter.owner=me
/// ```
///
/// Members keep the order in which the type encodes them (declaration order for synthesized
/// `Encodable`); the members of a dictionary are sorted by key, so the request is the same
/// every time. Objects nest to any depth (`a[b][c]=1`, `a.b.c=1`), and an array inside
/// follows the ``ArrayEncoding`` in use (`a[tags]=x&a[tags]=y`). Brackets are
/// percent-encoded with the key (`filter%5Bstatus%5D=open`). JSON bodies keep objects as
/// JSON objects and ignore this strategy.
public enum NestingEncoding: Hashable, Sendable {
    /// Each member's key in brackets: `filter[status]=open`. The default.
    case brackets

    /// Each member's key after a dot: `filter.status=open` (Spring, many Java servers).
    case dotted
}
