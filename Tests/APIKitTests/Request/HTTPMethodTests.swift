import APIKit
import Testing

@Suite("HTTPMethod")
struct HTTPMethodTests {
    struct Empty: RequestConfiguration, Sendable {}

    @Test("standard methods and literals are sent as written")
    func sentAsWritten() throws {
        #expect(try urlRequest(Empty()).httpMethod == "GET")
        #expect(try urlRequest(Empty(), method: .patch).httpMethod == "PATCH")
        #expect(try urlRequest(Empty(), method: HTTPMethod(rawValue: "PURGE")).httpMethod == "PURGE")
        #expect(HTTPMethod.delete.rawValue == "DELETE")
        #expect(HTTPMethod(rawValue: "GET") == .get)
    }

    @Test("a method that is not a token is a build error", arguments: ["GET /x", "", "PO\u{7F}ST", "GÉT"])
    func invalid(method: String) throws {
        let error = try #require(buildError(Empty(), method: HTTPMethod(rawValue: method)))
        guard case .invalidMethod(let rejected) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(rejected.rawValue == method)
    }
}
