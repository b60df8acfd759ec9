import Foundation
import Testing

@testable public import APIKit

/// A class that is a header, held by configurations below as `unowned`, `weak` or strongly.
final class TokenHeader: HeaderProtocol, Sendable {
    let token: String
    init(_ token: String) { self.token = token }
    var headerFields: [HeaderField] { [HeaderField(name: "X-Token", value: token)] }
}

/// A class whose `Optional` is made a header below: a `weak` property of it is a parameter
/// type, stored as a reference to a side table, not to the object. Public, as a conformance of
/// `Optional` is. Fully qualified: this file is also compiled in the AsyncHTTPClient package,
/// where APIKit is another package's module and an unqualified conformance warns.
public final class WeakHeaderSource: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Swift.Optional: APIKit.HeaderProtocol where Wrapped == WeakHeaderSource {
    /// `X-Weak: name` while the source lives; nothing once it is gone.
    public var headerFields: [HeaderField] { map { [HeaderField(name: "X-Weak", value: $0.name)] } ?? [] }
}

/// `unowned` and `weak` properties are never loaded as strong references: a type with a
/// parameter property that holds a class reference is read with Mirror, and an `Optional` —
/// every `weak` property is one — never counts, as in the Mirror walk.
@Suite("weak and unowned class properties beside wrappers")
struct ReferenceFieldTests {
    final class Owner: Sendable {}

    struct Mixed: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = "1"
        weak var owner: Owner?
        unowned let token: TokenHeader
        @Query("q") var q = 2
        weak var weakToken: TokenHeader?
        @JSON("j") var j = "x"
    }

    struct WeakOnly: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = "1"
        weak var owner: Owner?
        unowned let plainOwner: Owner
        @Query("q") var q = 2
    }

    struct Strong: RequestConfiguration, Sendable {
        var token: TokenHeader
        @Query("q") var q = 2
    }

    struct WeakParameter: RequestConfiguration, Sendable {
        @Query("q") var q = 2
        weak var source: WeakHeaderSource?
    }

    @Test("an unowned parameter property sends the type to Mirror, which reads it: same request both ways")
    func unownedParameter() throws {
        let token = TokenHeader("t")
        let owner = Owner()
        let value = Mixed(owner: owner, token: token, weakToken: token)
        #expect(FieldPlan.make(for: value) == nil)
        let request = try urlRequest(value, method: .post)
        #expect(request.header("X-Token") == "t")
        #expect(request.header("X-A") == "1")
        #expect(request.percentEncodedQuery == "q=2")
        #expect(request.bodyText == #"{"j":"x"}"#)
        withExtendedLifetime((token, owner)) {}
    }

    @Test("a strong class parameter is read with Mirror too: the walk cannot tell it from an unowned one")
    func strongParameter() throws {
        #expect(FieldPlan.make(for: Strong(token: TokenHeader("s"))) == nil)
        #expect(try urlRequest(Strong(token: TokenHeader("s"))).header("X-Token") == "s")
    }

    @Test("weak and unowned properties that are no parameters keep the plan, and are never read")
    func nonParameterReferences() throws {
        let owner = Owner()
        let value = WeakOnly(owner: owner, plainOwner: owner)
        let plan = try #require(FieldPlan.make(for: value))
        #expect(plan.fields.map(\.name) == ["a", "q"] && plan.readsInPlace)
        let request = try urlRequest(value)
        #expect(request.header("X-A") == "1" && request.percentEncodedQuery == "q=2")
        // A weak property that is already nil reads the same.
        #expect(try urlRequest(WeakOnly(owner: nil, plainOwner: owner)).percentEncodedQuery == "q=2")
        withExtendedLifetime(owner) {}
    }

    @Test("a weak property whose Optional type is a parameter is ignored, as Mirror ignores every Optional")
    func weakParameterIsNeverLoaded() throws {
        let source = WeakHeaderSource("w")
        let value = WeakParameter(source: source)
        let plan = try #require(FieldPlan.make(for: value))
        #expect(plan.fields.map(\.name) == ["q"])
        let request = try urlRequest(value)
        #expect(request.header("X-Weak") == nil)
        #expect(request.percentEncodedQuery == "q=2")
        withExtendedLifetime(source) {}
    }
}
