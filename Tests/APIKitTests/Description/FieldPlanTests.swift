import Foundation
import Testing

@testable import APIKit

@Suite("Field plans: reading configurations without Mirror")
struct FieldPlanTests {
    struct Plain: RequestConfiguration, Sendable {
        var ignored = 1
        @Header("X-A") var a: String? = "1"
        @Query("q") var q = 2
        lazy var lazyHeader = Header(wrappedValue: "lazy", "X-Lazy")
        var optionalHeader: Header? = Header(wrappedValue: "opt", "X-Optional")
        @JSON("j") var j = 3
    }

    @Test("a struct gets a plan listing its parameter properties, in order, without Optional or lazy storage")
    func structPlan() throws {
        var value = Plain()
        _ = value.lazyHeader
        let plan = try #require(FieldPlan.plan(for: value))
        #expect(plan.fields.map(\.name) == ["a", "q", "j"])
        #expect(plan.fields.map(\.kind) == [.header, .queryInt, .jsonInt])
        #expect(plan.headers.count == 1 && plan.query.count == 1 && plan.body.count == 1)
        let parameters = ParameterCollector.collect(from: value)
        #expect(parameters.headers.map(\.parameter.name) == ["X-A"])
    }

    struct Segments: RequestConfiguration, Sendable {
        @Header("X-A") var a = "1"
        @PathSegment("id") var id = 5
        @PathSegment("name") var name = "n"
    }

    struct SegmentsAndDate: RequestConfiguration, Sendable {
        @PathSegment("id") var id = 5
        @PathSegment("day") var day = Date(timeIntervalSince1970: 0)
        @PathSegment("name") var name = "n"
    }

    @Test("@PathSegments of String and Int are read in place, unless another path value is declared beside them")
    func pathInPlace() throws {
        let inPlace = try #require(FieldPlan.plan(for: Segments()))
        #expect(inPlace.pathReadsInPlace && inPlace.readsInPlace && inPlace.path.map(\.field) == [1, 2])
        let declared = try #require(FieldPlan.plan(for: SegmentsAndDate()))
        #expect(!declared.pathReadsInPlace && declared.declaredFields == [0, 1, 2])
        let plain = try #require(FieldPlan.plan(for: Plain()))
        #expect(!plain.pathReadsInPlace && plain.path.isEmpty)
        #expect(
            try urlRequest(SegmentsAndDate(), path: "{name}/{id}/{day}").url?.path == "/n/5/1970-01-01T00:00:00Z")
    }

    final class Reference: RequestConfiguration, @unchecked Sendable {
        @Header("X-A") var a = "1"
    }

    struct Reflecting: RequestConfiguration, CustomReflectable, Sendable {
        @Header("X-A") var a = "1"
        var customMirror: Mirror { Mirror(self, children: []) }
    }

    struct Existential: RequestConfiguration, @unchecked Sendable {
        var anyHeader: any HeaderProtocol = Header(wrappedValue: "v", "X-Any")
        @Query("q") var q = 1
    }

    enum Choice: RequestConfiguration, Sendable {
        case one
    }

    @Test("classes, CustomReflectable types, existential properties and enums are read with Mirror")
    func fallbacks() {
        #expect(FieldPlan.plan(for: Reference()) == nil)
        #expect(FieldPlan.plan(for: Reflecting()) == nil)
        #expect(FieldPlan.plan(for: Existential()) == nil)
        #expect(FieldPlan.plan(for: Choice.one) == nil)
    }

    @Test("Mirror semantics hold for those types: custom children and existential values count")
    func fallbackSemantics() throws {
        #expect(ParameterCollector.collect(from: Reflecting()).headers.isEmpty)
        let existential = ParameterCollector.collect(from: Existential())
        #expect(existential.headers.map(\.parameter.name) == ["X-Any"])
        #expect(existential.query.map(\.field) == ["q"])
        let request = try urlRequest(Existential())
        #expect(request.header("X-Any") == "v")
    }

    @propertyWrapper
    struct ConstantHeader: HeaderProtocol {
        var wrappedValue: Void = ()
        var headerFields: [HeaderField] { [HeaderField(name: "X-Constant", value: "c")] }
    }

    struct ZeroSized: RequestConfiguration, Sendable {
        @ConstantHeader var constant: Void = ()
    }

    struct Generic<Value: Encodable & Sendable>: RequestConfiguration, Sendable {
        // A wrapper value stored without the attribute counts like wrapped storage.
        var value: Query<Value>
        @ConstantHeader var constant: Void = ()

        init(value: Value) {
            self.value = Query(wrappedValue: value, "v")
        }
    }

    @Test("zero-sized wrappers, user wrappers and generic configurations read the same both ways")
    func unusualLayouts() throws {
        #expect(try urlRequest(ZeroSized()).header("X-Constant") == "c")
        #expect(try urlRequest(Generic(value: "text")).percentEncodedQuery == "v=text")
        #expect(try urlRequest(Generic(value: [1.5, 2])).percentEncodedQuery == "v=1.5&v=2.0")
        let plan = try #require(FieldPlan.plan(for: Generic(value: 1)))
        #expect(plan.fields.map(\.kind) == [.queryInt, .declared])
    }

    /// A value that encodes as how deep its own type is: `Box<Box<Leaf>>` writes 2, so a request
    /// read with another type's plan would write another number.
    protocol Nested: Encodable, Sendable {
        static var depth: Int { get }
    }

    struct Leaf: Nested {
        static var depth: Int { 0 }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Self.depth)
        }
    }

    struct Box<Inner: Nested>: Nested {
        var inner: Inner
        static var depth: Int { Inner.depth + 1 }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Self.depth)
        }
    }

    /// Encodes `Generic<Box^depth<Leaf>>` for every depth from `depth` up to `limit`: one type
    /// each, more than the plan cache's 64 slots, so that types share slots.
    private func encodeNested<Value: Nested>(_ value: Value, upTo limit: Int) throws -> [String?] {
        let query = try urlRequest(Generic(value: value)).percentEncodedQuery
        return Value.depth == limit ? [query] : [query] + (try encodeNested(Box(inner: value), upTo: limit))
    }

    @Test("more types than the plan cache has slots: each type is read with its own plan, again and again")
    func manyTypes() throws {
        for _ in 0..<3 {
            let queries = try encodeNested(Leaf(), upTo: 99)
            #expect(queries == (0...99).map { "v=\($0)" })
        }
    }

    @Test("plans are made once per type and shared across threads")
    func concurrentPlans() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let request = try? urlRequest(Generic(value: index))
                    return request?.percentEncodedQuery == "v=\(index)"
                }
            }
            for await matched in group { #expect(matched) }
        }
    }
}
