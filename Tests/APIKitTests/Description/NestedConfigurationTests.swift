import Foundation
import Testing

@testable import APIKit

@Suite("Nested configurations")
struct NestedConfigurationTests {
    struct Pagination: RequestConfiguration, Sendable {
        @Query("page") var page = 1
        @Query("per_page") var perPage = 20
    }

    struct Auth: RequestConfiguration, Sendable {
        @Header("Authorization") var token: String? = "Bearer t"
    }

    struct Search: RequestConfiguration, Sendable {
        @Query("q") var q = "swift"
        var paging = Pagination()
        var auth = Auth()
        var optionalPaging: Pagination? = Pagination(page: 9)
        @JSON("x") var x = 1
    }

    @Test("a configuration property contributes its parameters in place; an Optional one does not")
    func inlined() throws {
        let request = try urlRequest(Search(), method: .post)
        #expect(request.percentEncodedQuery == "q=swift&page=1&per_page=20")
        #expect(request.header("Authorization") == "Bearer t")
        #expect(request.bodyText == #"{"x":1}"#)
        let parameters = ParameterCollector.collect(from: Search())
        #expect(parameters.query.map(\.field) == ["q", "paging.page", "paging.perPage"])
        #expect(FieldPlan.plan(for: Search()) != nil)
    }

    struct Deeper: RequestConfiguration, Sendable {
        var search = Search()
        @Header("X-Top") var top = "1"
    }

    @Test("nesting goes any number of levels deep")
    func deep() throws {
        let request = try urlRequest(Deeper(), method: .post)
        #expect(request.percentEncodedQuery == "q=swift&page=1&per_page=20")
        #expect(request.header("X-Top") == "1")
        let fields = ParameterCollector.collect(from: Deeper()).query.map(\.field)
        #expect(fields == ["search.q", "search.paging.page", "search.paging.perPage"])
    }

    struct Clash: RequestConfiguration, Sendable {
        @Header("authorization") var token = "other"
        var auth = Auth()
    }

    @Test("the same header in a nested configuration, in any case, is an error naming both properties")
    func duplicateAcrossLevels() throws {
        let error = try #require(buildError(Clash()))
        guard case .duplicateHeader(_, fields: ["token", "auth.token"]) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct Empty: RequestConfiguration, Sendable {}

    final class Node: RequestConfiguration, @unchecked Sendable {
        @Header("X-Node") var header = "n"
        var next: any RequestConfiguration = Empty()
    }

    final class Holder: RequestConfiguration, @unchecked Sendable {
        var node = Node()
        @Query("h") var h = 1
    }

    @Test("class configurations that refer back to themselves are read once, not forever")
    func cycles() throws {
        let holder = Holder()
        holder.node.next = holder
        let parameters = ParameterCollector.collect(from: holder)
        #expect(parameters.headers.map(\.field) == ["node.header"])
        #expect(parameters.query.map(\.field) == ["h"])
    }

    final class Diamond: RequestConfiguration, @unchecked Sendable {
        var left: SharedAuth
        var right: SharedAuth
        init() {
            let one = SharedAuth(auth: Auth())
            left = one
            right = one
        }
    }

    final class SharedAuth: RequestConfiguration, @unchecked Sendable {
        var auth: Auth
        init(auth: Auth) { self.auth = auth }
    }

    @Test("one instance under two properties counts twice, like two structs: a duplicate header")
    func diamond() throws {
        let error = try #require(buildError(Diamond()))
        guard case .duplicateHeader(_, fields: ["left.auth.token", "right.auth.token"]) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    final class Shared: RequestConfiguration, @unchecked Sendable {
        @Query("s") var s = 1
    }

    struct WithClass: RequestConfiguration, @unchecked Sendable {
        var shared = Shared()
        @Query("t") var t = 2
    }

    @Test("a struct holding a class configuration is read with Mirror, with the same result")
    func classInsideStruct() throws {
        #expect(FieldPlan.plan(for: WithClass()) == nil)
        #expect(try urlRequest(WithClass()).percentEncodedQuery == "s=1&t=2")
    }
}
