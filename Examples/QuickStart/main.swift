// The README's example, run against a local httpbin (scripts/run-example.sh starts one).
//
// It declares the spec's SetPushRequest — a header and three form fields — sends it to
// httpbin's echo endpoint, and prints what the server received.
import APIKit

guard let server = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"].flatMap(URL.init(string:)) else {
    print("Set APIKIT_HTTPBIN_URL to an httpbin server, or run: bash scripts/run-example.sh")
    exit(2)
}

let httpbin: URL = server

struct SetPushRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("TOKEN") var accessToken = nil
    @Field("push_system_msg") var pushSystemMessage: Bool? = nil
    @Field("push_reply_me") var pushReplyMe: Bool? = nil
    @Field("push_favorited") var pushFavourite: Bool? = nil

    /// What httpbin's `/anything` echoes back.
    struct Response: Codable {
        var method: String
        var url: String
        var form: [String: String]
        var headers: [String: String]
    }

    let base: URL = httpbin
    let path: String = "anything/v3/config/set_push"
    let method: HTTPMethod = .post
}

let token = "secret-token"
let request = SetPushRequest(accessToken: token, pushSystemMessage: true, pushReplyMe: true, pushFavourite: false)
let done = DispatchSemaphore(value: 0)

request.perform { result in
    switch result {
    case .success(let response):
        print("\(response.method) \(response.url)")
        print("form fields received:", response.form.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        print("TOKEN header received:", response.headers["Token"] == token)
    case .failure(let error):
        print("request failed:", error.localizedDescription)
        exit(1)
    }
    done.signal()
}
done.wait()
