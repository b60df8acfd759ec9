import Foundation
import Testing

@testable import APIKit

/// The items custom wrappers return are `Sendable`: they can be made once, kept in a `static`,
/// handed to another task, and still encode as declared.
@Suite("QueryParameter, BodyParameter and PathParameter are Sendable")
struct ParameterItemsTests {
    /// Items made once and shared: a `static let` of a non-`Sendable` type would not compile.
    enum Shared {
        static let paging = [QueryParameter(key: "page", value: 2), .keyOnly("verbose")]
        static let body = [BodyParameter(key: "tags", value: ["a", "b"], encoding: .json)]
        static let path = [PathParameter(name: "id", value: 7)]
    }

    @propertyWrapper
    struct Paging: QueryProtocol, Sendable {
        var wrappedValue: Bool
        var queryParameters: [QueryParameter] { wrappedValue ? Shared.paging : [] }
    }

    @propertyWrapper
    struct Tags: BodyProtocol, Sendable {
        var wrappedValue: Bool
        var bodyParameters: [BodyParameter] { wrappedValue ? Shared.body : [] }
    }

    @propertyWrapper
    struct ID: PathProtocol, Sendable {
        var wrappedValue: Bool
        var pathParameters: [PathParameter] { Shared.path }
    }

    struct SharedItems: RequestConfiguration, Sendable {
        @Paging var paging = true
        @Tags var tags = true
        @ID var id = true
    }

    @Test("items cross a task boundary and keep their keys and values")
    func crossTasks() async {
        let items = await Task.detached { () -> ([QueryParameter], [BodyParameter], [PathParameter]) in
            (Shared.paging, Shared.body, Shared.path)
        }.value
        #expect(items.0.map(\.key) == ["page", "verbose"])
        guard case .encodable(let page) = items.0[0].value, case .keyOnly = items.0[1].value else {
            Issue.record("the page item has a value and verbose none")
            return
        }
        #expect(page as? Int == 2)
        #expect(items.1.first?.value as? [String] == ["a", "b"])
        #expect(items.2.first?.value as? Int == 7)
    }

    @Test("a request whose wrappers return shared items encodes them, read both ways")
    func encodesSharedItems() throws {
        let request = try urlRequest(SharedItems(), method: .post, path: "items/{id}")
        #expect(request.url?.absoluteString == "https://api.example.com/items/7?page=2&verbose")
        #expect(request.bodyText == #"{"tags":["a","b"]}"#)
    }
}
