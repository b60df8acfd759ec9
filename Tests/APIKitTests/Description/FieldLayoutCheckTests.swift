import Foundation
import Testing

@testable import APIKit

/// A walker that fails, or lists what the type does not hold, sends the type down the Mirror
/// road: the plan is never made from what the check cannot vouch for.
@Suite("FieldLayoutCheck: a walk Mirror and the layout disagree with is refused")
struct FieldLayoutCheckTests {
    struct Sample: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = "1"
        var note = "not a parameter"
        @Query("first") var first = 1
        @Query("second") var second = 2
        @JSON("j") var j = true
    }

    /// The standard library's walk of `Sample`, changed by `change`.
    static func walker(_ change: @escaping @Sendable (inout [StoredField]) -> Void) -> StoredFieldWalker {
        StoredFieldWalker { type in
            guard var fields = StoredFieldWalker.standardLibrary.fields(type) else { return nil }
            change(&fields)
            return fields
        }
    }

    /// Why `walker`'s walk of `Sample` is refused; `nil` when it is vouched for.
    static func refusal(_ walker: StoredFieldWalker) -> FieldLayoutCheck.Refusal? {
        switch FieldLayoutCheck.check(Sample.self, sample: Sample(), walker: walker) {
        case .success: nil
        case .failure(let refusal): refusal
        }
    }

    @Test("the standard library's walk of a configuration is vouched for, with Mirror's values beside it")
    func standardLibraryIsVouchedFor() throws {
        let vouched = try FieldLayoutCheck.check(Sample.self, sample: Sample(), walker: .standardLibrary).get()
        #expect(vouched.map(\.field.label) == ["_a", "note", "_first", "_second", "_j"])
        #expect(vouched.map(\.field.storage) == [.structure, .structure, .structure, .structure, .structure])
        #expect((vouched[1].value as? String) == "not a parameter")
        #expect(FieldPlan.make(for: Sample()) != nil)
    }

    @Test("each kind of lie is caught by its rule")
    func eachLieIsCaught() {
        #expect(Self.refusal(StoredFieldWalker { _ in nil }) == .walkFailed)
        #expect(Self.refusal(Self.walker { $0.removeLast() }) == .countDiffers(walked: 4, mirrored: 5))
        #expect(
            Self.refusal(Self.walker { $0.swapAt(2, 3) })
                == .labelDiffers(index: 2, walked: "_second", mirrored: "_first"))
        #expect(Self.refusal(Self.walker { $0[2].type = Query<String>.self }) == .typeDiffers(label: "_first"))
        #expect(Self.refusal(Self.walker { $0[2].offset += 1 }) == .misaligned(label: "_first"))
        #expect(Self.refusal(Self.walker { $0[4].offset += MemoryLayout<Sample>.size }) == .outOfBounds(label: "_j"))
        #expect(Self.refusal(Self.walker { $0[0].offset = -8 }) == .outOfBounds(label: "_a"))
        // Two properties of one type with their offsets swapped: each would read the other's key.
        #expect(
            Self.refusal(Self.walker { ($0[2].offset, $0[3].offset) = ($0[3].offset, $0[2].offset) })
                == .overlaps(label: "_second"))
        #expect(Self.refusal(Self.walker { $0[3].offset = $0[2].offset }) == .overlaps(label: "_second"))
    }

    @Test("a refused walk makes no plan: the type is read with Mirror, and builds the same request")
    func refusedWalkFallsBackToMirror() throws {
        let liars = [
            StoredFieldWalker { _ in nil },
            Self.walker { $0.removeFirst() },
            Self.walker { ($0[2].offset, $0[3].offset) = ($0[3].offset, $0[2].offset) },
        ]
        for liar in liars {
            #expect(FieldPlan.make(for: Sample(), walker: liar) == nil)
        }
        let request = try urlRequest(Sample(), method: .post)
        #expect(request.percentEncodedQuery == "first=1&second=2")
    }

    struct Outer: RequestConfiguration, Sendable {
        @Header("X-Outer") var outer: String? = "o"
        var inner = Sample()
    }

    @Test("a nested configuration is checked in turn, on its own value")
    func nestedIsChecked() {
        #expect(FieldPlan.make(for: Outer()) != nil)
        // Lies only about the nested type.
        let liar = StoredFieldWalker { type in
            guard var fields = StoredFieldWalker.standardLibrary.fields(type) else { return nil }
            if type == Sample.self { fields[1].offset += 1 }
            return fields
        }
        #expect(FieldPlan.make(for: Outer(), walker: liar) == nil)
    }

    class Base: @unchecked Sendable {}
    final class Derived: Base, HeaderProtocol, @unchecked Sendable {
        var headerFields: [HeaderField] { [HeaderField(name: "X-Derived", value: "d")] }
    }

    struct HoldsBase: RequestConfiguration, Sendable {
        @Query("q") var q = 1
        var base: Base
    }

    @Test("a class property holding a subclass's instance is refused: Mirror asks the instance's conformances")
    func subclassInstance() throws {
        #expect(FieldPlan.make(for: HoldsBase(base: Base())) != nil)
        let holdsDerived = HoldsBase(base: Derived())
        let refusal = FieldLayoutCheck.check(HoldsBase.self, sample: holdsDerived, walker: .standardLibrary)
        #expect(throws: FieldLayoutCheck.Refusal.typeDiffers(label: "base")) { try refusal.get() }
        #expect(FieldPlan.make(for: holdsDerived) == nil)
        // Through Mirror the instance is a header, as the Mirror walk has always read it.
        let request = try TestRequest(configuration: holdsDerived).encodedURLRequest(reading: .mirror)
        #expect(request.value(forHTTPHeaderField: "X-Derived") == "d")
    }

    struct ZeroSized: RequestConfiguration, Sendable {
        @Query("q") var q = 1
        var nothing: Void = ()
        var metatype: Int.Type = Int.self
    }

    @Test("a property of no size, or a metatype, may be put anywhere: nothing is read there")
    func zeroSizedAnywhere() throws {
        let vouched = try FieldLayoutCheck.check(ZeroSized.self, sample: ZeroSized(), walker: .standardLibrary).get()
        #expect(vouched.count == 3)
        let moved = StoredFieldWalker { type in
            StoredFieldWalker.standardLibrary.fields(type).map { fields in
                fields.map { field in
                    var field = field
                    if field.label == "nothing" { field.offset = 1_000 }
                    return field
                }
            }
        }
        #expect(FieldPlan.make(for: ZeroSized(), walker: moved) != nil)
    }
}
