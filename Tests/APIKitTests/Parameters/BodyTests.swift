import APIKit
import Foundation
import Testing

@Suite("@JSON and @Field bodies")
struct BodyTests {
    struct Address: Encodable, Sendable {
        var lines = ["1-2", "3"]
        var city = "東京"
    }

    struct JSONBody: RequestConfiguration, Sendable {
        @JSON("name") var name = "a\"b\\c/d"
        @JSON("count") var count = 3
        @JSON("missing") var missing: Int? = nil
        @JSON("address") var address = Address()
        @JSON("tags") var tags = ["x", "y"]
        @JSON("when") var when = Date(timeIntervalSince1970: 0)
        @JSON("ratio") var ratio = 0.1
        @JSON("flag") var flag: Bool? = false
    }

    @Test("@JSON fields merge into one object in declaration order; nested keys sorted; nil omitted")
    func jsonBody() throws {
        let request = try urlRequest(JSONBody(), method: .post)
        #expect(request.header("Content-Type") == "application/json")
        let text = try #require(request.bodyText)
        #expect(
            text == #"{"name":"a\"b\\c/d","count":3,"address":{"city":"東京","lines":["1-2","3"]},"#
                + #""tags":["x","y"],"when":"1970-01-01T00:00:00Z","ratio":0.1,"flag":false}"#
        )
        let object = try #require(try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any])
        #expect(object["missing"] == nil)
        #expect((object["address"] as? [String: Any])?["city"] as? String == "東京")
    }

    struct AllNil: RequestConfiguration, Sendable {
        @JSON("a") var a: Int? = nil
    }

    @Test("a request with @JSON fields that are all nil sends an empty object")
    func allNilJSON() throws {
        let request = try urlRequest(AllNil(), method: .post)
        #expect(request.bodyText == "{}")
        #expect(request.header("Content-Type") == "application/json")
    }

    struct NoBody: RequestConfiguration, Sendable {
        @Query("a") var a = 1
    }

    @Test("without body fields there is no body and no Content-Type")
    func noBody() throws {
        let request = try urlRequest(NoBody(), method: .post)
        #expect(request.httpBody == nil)
        #expect(request.header("Content-Type") == nil)
    }

    struct FormBody: RequestConfiguration, Sendable {
        @Field("text") var text = "a+b c&d=e#f%g"
        @Field("flag") var flag: Bool? = true
        @Field("none") var none: Bool? = nil
        @Field("ids") var ids = [1, 2]
        @Field("empty") var empty = ""
        @Field("ключ") var unicode = "東京"
    }

    @Test("@Field uses form encoding: space as +, + as %2B, same scalar rules as the query")
    func formBody() throws {
        let request = try urlRequest(FormBody(), method: .post)
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(
            request.bodyText
                == "text=a%2Bb+c%26d%3De%23f%25g&flag=true&ids=1&ids=2&empty=&%D0%BA%D0%BB%D1%8E%D1%87=%E6%9D%B1%E4%BA%AC"
        )
    }

    @Test("the form body parses back to the declared values")
    func formRoundTrip() throws {
        let request = try urlRequest(FormBody(), method: .post)
        let parsed = try FormURLEncodedDataParser(duplicateKeys: .useLast).parse(data: request.httpBody ?? Data())
        #expect(parsed["text"] == "a+b c&d=e#f%g")
        #expect(parsed["ключ"] == "東京")
        #expect(parsed["empty"] == "")
        #expect(parsed["none"] == nil)
    }

    struct Mixed: RequestConfiguration, Sendable {
        @JSON("a") var a = 1
        @Field("b") var b = 2
    }

    @Test("@JSON together with @Field is a build error naming both fields")
    func conflictingBodies() throws {
        let error = try #require(buildError(Mixed(), method: .post))
        guard case .conflictingBodies("a", "b") = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct SameKey: RequestConfiguration, Sendable {
        @JSON("id") var first = 1
        @JSON("id") var second = 2
    }

    @Test("one JSON key declared twice is a build error naming both fields")
    func duplicateJSONKey() throws {
        let error = try #require(buildError(SameKey(), method: .post))
        guard case .duplicateBodyKey("id", fields: ["first", "second"]) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct Failing: Encodable, Sendable {
        struct Boom: Error {}
        func encode(to encoder: any Encoder) throws { throw Boom() }
    }

    struct ThrowsInJSON: RequestConfiguration, Sendable {
        @JSON("ok") var ok = 1
        @JSON("bad") var bad = Failing()
    }

    struct NaNInJSON: RequestConfiguration, Sendable {
        @JSON("x") var x = Double.infinity
    }

    @Test("a JSON value that fails to encode is a build error naming its field")
    func jsonEncodingFails() throws {
        let error = try #require(buildError(ThrowsInJSON(), method: .post))
        guard case .valueEncodingFailed("bad", "bad", let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(underlying is Failing.Boom)
        let nan = try #require(buildError(NaNInJSON(), method: .post))
        guard case .valueEncodingFailed("x", "x", _) = nan else {
            Issue.record("unexpected \(nan)")
            return
        }
    }

    struct Nested: Encodable, Sendable {
        var a = 1
    }

    struct NestedField: RequestConfiguration, Sendable {
        @Field("n") var n = Nested()
    }

    @Test("a nested form value is written with brackets by default")
    func nestedForm() throws {
        #expect(try urlRequest(NestedField(), method: .post).bodyText == "n%5Ba%5D=1")
    }
}
