import Foundation
import Testing

@testable import APIKit

/// What the standard library's walk reports of each kind of stored property, as the plan
/// reads it: `weak` is always an `Optional`, `unowned` a class reference like a strong one.
@Suite("StoredFieldWalker.standardLibrary: labels, offsets and storage of every kind of property")
struct StoredFieldsTests {
    final class Object: Sendable {}

    struct Kinds: @unchecked Sendable {
        var number = 1
        var choice = FloatingPointSign.plus
        var pair = (1, "a")
        var function: @Sendable () -> Void = {}
        var metatype: Int.Type = Int.self
        var anyMetatype: Any.Type = Int.self
        var optional: Int? = nil
        weak var weakObject: Object?
        unowned let unownedObject: Object
        unowned(unsafe) let unsafeObject: Object
        var strongObject: Object
        var existential: Any = 1
        @Query("q") var wrapped = 1
    }

    @Test("each kind of property is reported with its storage, under Mirror's label")
    func kinds() throws {
        let object = Object()
        let fields = try #require(StoredFieldWalker.standardLibrary.fields(Kinds.self))
        let storage = Dictionary(uniqueKeysWithValues: fields.map { ($0.label, $0.storage) })
        #expect(storage["number"] == .structure)
        #expect(storage["choice"] == .value)
        #expect(storage["pair"] == .value)
        #expect(storage["function"] == .value)
        #expect(storage["metatype"] == .metatype)
        #expect(storage["anyMetatype"] == .undescribed)
        #expect(storage["optional"] == .optional)
        #expect(storage["weakObject"] == .optional)
        #expect(storage["unownedObject"] == .reference)
        #expect(storage["unsafeObject"] == .reference)
        #expect(storage["strongObject"] == .reference)
        #expect(storage["existential"] == .undescribed)
        #expect(storage["_wrapped"] == .structure)
        let value = Kinds(unownedObject: object, unsafeObject: object, strongObject: object)
        #expect(fields.map(\.label) == Mirror(reflecting: value).children.map { $0.label ?? "" })
    }

    @Test("a class cannot be walked: its instances are read with Mirror")
    func classes() {
        #expect(StoredFieldWalker.standardLibrary.fields(Object.self) == nil)
    }
}
