import Foundation
import Testing

@testable import APIKit

// `Request where Self: RequestConfiguration` gives `configuration` a default that returns the
// request. Each pair below is one declaration written twice: without the property (the short
// form) and with `var configuration: Self { self }` (the spec's form, which must keep working).

/// Headers, query items and a JSON body: a configuration written straight from its field plan.
struct ShortFormJSONRequest: JSONDecodableRequest, RequestConfiguration {
    struct Response: Decodable, Sendable { var id: Int }
    @Header("Authorization") var authorization: String? = "Bearer t"
    @Header("X-Absent") var absent: String? = nil
    @Query("tags") var tags = ["a b", "c&d"]
    @Query("limit") var limit: Int? = 10
    @JSON("title") var title = "Notes \"1\""
    @JSON("draft") var draft: Bool? = false

    let base = URL(string: "https://api.example.com/v2")!
    let path = "items"
    let method: HTTPMethod = .post
}

/// ``ShortFormJSONRequest`` with the explicit property.
struct ExplicitFormJSONRequest: JSONDecodableRequest, RequestConfiguration {
    struct Response: Decodable, Sendable { var id: Int }
    @Header("Authorization") var authorization: String? = "Bearer t"
    @Header("X-Absent") var absent: String? = nil
    @Query("tags") var tags = ["a b", "c&d"]
    @Query("limit") var limit: Int? = 10
    @JSON("title") var title = "Notes \"1\""
    @JSON("draft") var draft: Bool? = false

    let base = URL(string: "https://api.example.com/v2")!
    let path = "items"
    let method: HTTPMethod = .post
    var configuration: Self { self }
}

/// A path segment and a form body: a configuration the field plan hands to the collector.
struct ShortFormFormRequest: Request, RequestConfiguration {
    @PathSegment("id") var id = "a/b"
    @Header("X-Trace") var trace = "1"
    @Field("name") var name = "Ann & Bob"
    @Field("tags") var tags = ["x", "y"]

    let base = URL(string: "https://api.example.com")!
    let path = "users/{id}/rename"
    let method: HTTPMethod = .put
    var parser: StringParser { StringParser() }
}

/// ``ShortFormFormRequest`` with the explicit property, written as the spec writes it.
struct ExplicitFormFormRequest: Request, RequestConfiguration {
    @PathSegment("id") var id = "a/b"
    @Header("X-Trace") var trace = "1"
    @Field("name") var name = "Ann & Bob"
    @Field("tags") var tags = ["x", "y"]

    let base = URL(string: "https://api.example.com")!
    let path = "users/{id}/rename"
    let method: HTTPMethod = .put
    var parser: StringParser { StringParser() }
    var configuration: Self { return self }
}

/// A generic request that is its own configuration.
struct ShortFormPage<Item: Decodable & Sendable>: JSONDecodableRequest, RequestConfiguration {
    typealias Response = [Item]
    @Query("page") var page = 1

    let base = URL(string: "https://api.example.com")!
    let path = "list"
    let method: HTTPMethod = .get
}

/// Parameters several requests share.
struct SharedPaging: RequestConfiguration, Sendable {
    @Query("page") var page = 3
    @Header("X-Paging") var paging = "on"
}

/// A request whose configuration is a separate type.
struct SeparateConfigurationRequest: JSONDecodableRequest {
    struct Response: Decodable, Sendable {}
    let base = URL(string: "https://api.example.com")!
    let path = "items"
    let method: HTTPMethod = .get
    var configuration: SharedPaging
}

/// A request that is a configuration itself but names another one: its own property wins over
/// the default, and its own fields are not sent.
struct OverridingConfigurationRequest: JSONDecodableRequest, RequestConfiguration {
    struct Response: Decodable, Sendable {}
    @Header("X-Own") var own = "not sent"
    var paging = SharedPaging()

    let base = URL(string: "https://api.example.com")!
    let path = "items"
    let method: HTTPMethod = .get
    var configuration: SharedPaging { paging }
}

@Suite("A request that is its own configuration needs no configuration property")
struct DefaultConfigurationTests {
    @Test("the short form builds the URLRequest of the explicit form, byte for byte (direct writing)")
    func shortFormMatchesExplicitFormDirect() throws {
        let short = try ShortFormJSONRequest().makeURLRequest()
        let explicit = try ExplicitFormJSONRequest().makeURLRequest()
        expectIdentical(short, explicit)
        #expect(short.url?.absoluteString == "https://api.example.com/v2/items?tags=a%20b&tags=c%26d&limit=10")
        #expect(short.httpMethod == "POST")
        #expect(
            short.allHTTPHeaderFields?.filter { $0.key != "Content-Length" } == [
                "Authorization": "Bearer t", "Accept": "application/json", "Content-Type": "application/json",
            ])
        #expect(short.bodyText == #"{"title":"Notes \"1\"","draft":false}"#)
    }

    @Test("the short form builds the URLRequest of the explicit form, byte for byte (path and form body)")
    func shortFormMatchesExplicitFormGeneral() throws {
        let short = try ShortFormFormRequest(name: "Zoë").makeURLRequest()
        let explicit = try ExplicitFormFormRequest(name: "Zoë").makeURLRequest()
        expectIdentical(short, explicit)
        #expect(short.url?.absoluteString == "https://api.example.com/users/a%2Fb/rename")
        #expect(short.httpMethod == "PUT")
        #expect(short.header("X-Trace") == "1")
        #expect(short.bodyText == "name=Zo%C3%AB&tags=x&tags=y")
    }

    @Test("reading the short form with its field plan and with Mirror gives the same request")
    func shortFormSameThroughPlanAndMirror() throws {
        #expect(FieldPlan.plan(for: ShortFormJSONRequest())?.readsInPlace == true)
        #expect(FieldPlan.plan(for: ShortFormFormRequest())?.readsInPlace == false)
        try expectSameBothWays(ShortFormJSONRequest())
        try expectSameBothWays(ShortFormJSONRequest(authorization: nil, absent: "x", tags: [], limit: nil))
        try expectSameBothWays(ShortFormFormRequest())
        try expectSameBothWays(ShortFormPage<Int>(page: 4))
    }

    @Test("Configuration is inferred as the request itself, also for a generic request")
    func inferredAsSelf() throws {
        #expect(ShortFormJSONRequest.Configuration.self == ShortFormJSONRequest.self)
        #expect(ExplicitFormFormRequest.Configuration.self == ExplicitFormFormRequest.self)
        #expect(ShortFormPage<String>.Configuration.self == ShortFormPage<String>.self)
        // Compiles only while the default's type is the request's own.
        let request = ShortFormJSONRequest(limit: 3)
        let configuration: ShortFormJSONRequest = request.configuration
        #expect(configuration.limit == 3)
        let page = try ShortFormPage<String>(page: 2).makeURLRequest()
        #expect(page.url?.absoluteString == "https://api.example.com/list?page=2")
    }

    @Test("a request whose configuration is a separate type sends that type's fields")
    func separateConfiguration() throws {
        #expect(SeparateConfigurationRequest.Configuration.self == SharedPaging.self)
        let request = try SeparateConfigurationRequest(configuration: SharedPaging(page: 5)).makeURLRequest()
        #expect(request.url?.absoluteString == "https://api.example.com/items?page=5")
        #expect(request.header("X-Paging") == "on")
        try expectSameBothWays(SeparateConfigurationRequest(configuration: SharedPaging()))
    }

    @Test("a request that is a configuration but declares another one uses the declared one")
    func declaredConfigurationWinsOverDefault() throws {
        #expect(OverridingConfigurationRequest.Configuration.self == SharedPaging.self)
        let request = try OverridingConfigurationRequest(paging: SharedPaging(page: 9)).makeURLRequest()
        #expect(request.url?.absoluteString == "https://api.example.com/items?page=9")
        #expect(request.header("X-Paging") == "on")
        #expect(request.header("X-Own") == nil)
        try expectSameBothWays(OverridingConfigurationRequest())
    }

    /// Builds `request` reading its configuration through the field plan and through Mirror,
    /// and expects the same bytes.
    private func expectSameBothWays<R: Request>(
        _ request: R, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        expectIdentical(
            try request.encodedURLRequest(),
            try request.encodedURLRequest(reading: .mirror),
            sourceLocation: sourceLocation
        )
    }
}
