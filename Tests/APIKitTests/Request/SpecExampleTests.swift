import APIKit
import Testing

// The spec's first example, verbatim but for the token, must compile with only `import APIKit`.
struct SetPushRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("TOKEN") var accessToken = nil
    @Field("push_system_msg") var pushSystemMessage: Bool? = nil
    @Field("push_reply_me") var pushReplyMe: Bool? = nil
    @Field("push_favorited") var pushFavourite: Bool? = nil

    struct Response: Codable {
        var code: Int
        var msg: String?
    }

    let base: URL = URL(string: "https://dev-api.thuhole.com")!
    let path: String = "v3/config/set_push"
    let method: HTTPMethod = .post

    var configuration: Self { return self }
}

@Suite("The spec's example")
struct SpecExampleTests {
    @Test("SetPushRequest builds the POST the spec describes")
    func builds() throws {
        let request = SetPushRequest(
            accessToken: "tok", pushSystemMessage: true, pushReplyMe: nil, pushFavourite: false)
        let urlRequest = try request.makeURLRequest()
        #expect(urlRequest.url?.absoluteString == "https://dev-api.thuhole.com/v3/config/set_push")
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.header("TOKEN") == "tok")
        #expect(urlRequest.header("Accept") == "application/json")
        #expect(urlRequest.header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(urlRequest.bodyText == "push_system_msg=true&push_favorited=false")
    }

    @Test("its response type is decoded by the default JSON parser")
    func parses() throws {
        let request = SetPushRequest()
        let object = try request.parser.parse(data: Data(#"{"code":0,"msg":"ok"}"#.utf8))
        let urlResponse = URLResponse(
            url: request.base, mimeType: "application/json", expectedContentLength: 21, textEncodingName: nil)
        let response = try request.response(from: object, urlResponse: urlResponse)
        #expect(response.code == 0 && response.msg == "ok")
    }
}
