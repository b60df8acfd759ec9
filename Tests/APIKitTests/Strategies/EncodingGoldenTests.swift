import APIKit
import Foundation
import Testing

/// The exact request a corpus of declarations builds: a change to any byte of these is a
/// change to what servers receive, so it must show up here.
@Suite("Golden requests for encoding strategies")
struct EncodingGoldenTests {
    struct Golden: Sendable, CustomTestStringConvertible {
        var name: String
        var build: @Sendable () throws -> URLRequest
        var url: String
        var body: String?
        var contentType: String?

        var testDescription: String { name }
    }

    struct Filter: Encodable, Sendable {
        var status = "open & ready"
        var labels = ["bug", "p1"]
        var window = ["to": Date(timeIntervalSince1970: 86_400), "from": Date(timeIntervalSince1970: 0)]
    }

    struct Search: RequestConfiguration, Sendable {
        @Query("q") var query = "swift, linux"
        @Query("ids", strategy: .init(arrays: .commaSeparated)) var ids = [3, 1, 2]
        @Query("filter") var filter = Filter()
        @Query("cursor") var cursor: String? = nil
        @Query("exact") var exact = true
        @KeyQuery("debug") var debug = true
    }

    struct Signup: RequestConfiguration, Sendable {
        @Field("name") var name = "Zoë Q"
        @Field("roles", strategy: .init(arrays: .indexed)) var roles = ["admin", "dev"]
        @Field("profile", strategy: .init(nesting: .dotted)) var profile = ["city": "東京", "zip": "100-0001"]
        @Field("newsletter") var newsletter = false
        @Field("referrer") var referrer: String? = nil
        @Field("born") var born = Date(timeIntervalSince1970: 631_152_000)
    }

    struct Patch: RequestConfiguration, Sendable {
        @JSON("title") var title = "New"
        @JSON("archived") var archived = true
        @JSON("dueAt") var dueAt = Date(timeIntervalSince1970: 1_700_000_000.5)
        @JSON("assignee", strategy: .init(nils: .null)) var assignee: String? = nil
        @JSON("note") var note: String? = nil
        @JSON("flags") var flags = ["beta": true]
    }

    static let cases: [Golden] = [
        Golden(
            name: "query, default strategies",
            build: { try urlRequest(Search()) },
            url: "https://api.example.com/items?q=swift%2C%20linux&ids=3,1,2&filter%5Bstatus%5D=open%20%26%20ready"
                + "&filter%5Blabels%5D=bug&filter%5Blabels%5D=p1&filter%5Bwindow%5D%5Bfrom%5D=1970-01-01T00%3A00%3A00Z"
                + "&filter%5Bwindow%5D%5Bto%5D=1970-01-02T00%3A00%3A00Z&exact=true&debug"
        ),
        Golden(
            name: "query, request strategy: brackets arrays, dotted nesting, numeric bools, epoch dates, null nils",
            build: {
                try urlRequest(
                    Search(),
                    strategy: .init(
                        arrays: .brackets, nesting: .dotted, bools: .numeric, dates: .secondsSince1970, nils: .null)
                )
            },
            url: "https://api.example.com/items?q=swift%2C%20linux&ids=3,1,2&filter.status=open%20%26%20ready"
                + "&filter.labels%5B%5D=bug&filter.labels%5B%5D=p1&filter.window.from=0&filter.window.to=86400"
                + "&cursor=null&exact=1&debug"
        ),
        Golden(
            name: "form body, per-field strategies",
            build: { try urlRequest(Signup(), method: .post) },
            url: "https://api.example.com/items",
            body: "name=Zo%C3%AB+Q&roles%5B0%5D=admin&roles%5B1%5D=dev&profile.city=%E6%9D%B1%E4%BA%AC"
                + "&profile.zip=100-0001&newsletter=false&born=1990-01-01T00%3A00%3A00Z",
            contentType: "application/x-www-form-urlencoded; charset=utf-8"
        ),
        Golden(
            name: "form body, request strategy under field strategies",
            build: {
                try urlRequest(
                    Signup(),
                    method: .post,
                    strategy: .init(
                        arrays: .commaSeparated, nesting: .brackets, bools: .numeric, dates: .millisecondsSince1970,
                        nils: .empty)
                )
            },
            url: "https://api.example.com/items",
            body: "name=Zo%C3%AB+Q&roles%5B0%5D=admin&roles%5B1%5D=dev&profile.city=%E6%9D%B1%E4%BA%AC"
                + "&profile.zip=100-0001&newsletter=0&referrer=&born=631152000000",
            contentType: "application/x-www-form-urlencoded; charset=utf-8"
        ),
        Golden(
            name: "JSON body, default strategies with one null member",
            build: { try urlRequest(Patch(), method: .patch) },
            url: "https://api.example.com/items",
            body:
                #"{"title":"New","archived":true,"dueAt":"2023-11-14T22:13:20Z","assignee":null,"flags":{"beta":true}}"#,
            contentType: "application/json"
        ),
        Golden(
            name: "JSON body, request strategy: numeric bools, fractional ISO dates, null nils",
            build: {
                try urlRequest(
                    Patch(),
                    method: .patch,
                    strategy: .init(bools: .numeric, dates: .iso8601WithFractionalSeconds, nils: .null)
                )
            },
            url: "https://api.example.com/items",
            body:
                #"{"title":"New","archived":1,"dueAt":"2023-11-14T22:13:20.500Z","assignee":null,"note":null,"flags":{"beta":1}}"#,
            contentType: "application/json"
        ),
    ]

    @Test("each declaration builds exactly this request", arguments: cases)
    func golden(_ golden: Golden) throws {
        let request = try golden.build()
        #expect(request.url?.absoluteString == golden.url)
        #expect(request.bodyText == golden.body)
        #expect(request.header("Content-Type") == golden.contentType)
    }
}
