/// A stored property that equality and hashing leave out, so that a type holding it can still
/// have its `Hashable` conformance synthesized from the members that say which value it is.
///
/// ```swift
/// struct Tagged: Hashable {
///     var name: String
///     var note = NotCompared("")   // two Tagged with the same name are equal
/// }
/// ```
struct NotCompared<Value: Sendable>: Hashable, Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
