/// How an array is written into a query string or a form body.
///
/// ```swift
/// @Query("ids") var ids = [1, 2]                                               // ids=1&ids=2
/// @Query("ids", strategy: .init(arrays: .brackets)) var bracketed = [1, 2]     // ids[]=1&ids[]=2
/// @Query("ids", strategy: .init(arrays: .indexed)) var indexed = [1, 2]        // ids[0]=1&ids[1]=2
/// @Query("ids", strategy: .init(arrays: .commaSeparated)) var joined = [1, 2]  // ids=1,2
/// ```
///
/// Brackets are part of the key and are percent-encoded with it (`ids%5B%5D=1`), as every
/// character outside `A-Z a-z 0-9 - . _ ~` is; servers decode them back to `ids[]`. The comma
/// of `.commaSeparated` is written as a literal `,`, while a comma inside an element is
/// percent-encoded (`%2C`), so the elements can be told apart. An empty array sends nothing
/// with every strategy. A value that is not an array is never split: `.commaSeparated` on
/// `"a,b"` sends `a%2Cb`.
///
/// Only `.indexed` can write an array of arrays or of objects (`m[0][0]=1`, `p[0][name]=x`);
/// the other strategies fail with ``BuildError/unsupportedValue(field:key:reason:)`` and
/// ``BuildError/UnsupportedValueReason/elementNotExpressible(at:element:arrays:)`` rather
/// than send something the server would read differently. JSON bodies keep arrays as JSON
/// arrays and ignore this strategy.
public enum ArrayEncoding: Hashable, Sendable {
    /// The key repeated for each element: `ids=1&ids=2`. The default.
    case repeatKey

    /// Empty brackets after the key for each element: `ids[]=1&ids[]=2` (Rails, PHP).
    case brackets

    /// The element's position in brackets: `ids[0]=1&ids[1]=2`. A `nil` element that is
    /// omitted keeps its position: `[1, nil, 3]` sends `ids[0]=1&ids[2]=3`.
    case indexed

    /// One item, the elements joined by a literal comma: `ids=1,2`.
    case commaSeparated
}
