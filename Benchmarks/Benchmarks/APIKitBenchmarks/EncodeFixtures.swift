// Request fixtures for the encode benchmarks: each APIKit declaration next to
// the same request written by hand.
//
// "Hand-written minimal" is the cheapest code a person would write: the URL
// from one string whose query is already percent-encoded (values that need no
// escaping are interpolated, the others written pre-encoded),
// `URLRequest(url:)`, `allHTTPHeaderFields` from a dictionary literal and the
// body from an interpolated JSON string.
//
// "Hand-written typical" is what most code does: `URLComponents` +
// `queryItems`, `setValue(_:forHTTPHeaderField:)` per header and a shared
// `JSONEncoder` encoding a `Codable` body struct.
//
// `Verification.swift` checks, before any benchmark runs, that each APIKit
// request and its hand-written minimal twin produce the same URL, method,
// header fields and body bytes.

import APIKit

enum Endpoint {
    static let base = URL(string: "https://api.example.com/v1")!
    static let baseString = "https://api.example.com/v1"
}

// MARK: - 1 field

/// One query item: `GET /v1/users?id=42`, plus the `Accept` header the parser implies.
struct Encode1Request: JSONDecodableRequest, RequestConfiguration {
    @Query("id") var id: Int? = 42

    struct Response: Decodable { var id: Int }

    var base: URL { Endpoint.base }
    var path: String { "users" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
}

enum HandWritten1 {
    static func minimal(_ r: Encode1Request) -> URLRequest {
        var request = URLRequest(url: URL(string: "\(Endpoint.baseString)/users?id=\(r.id!)")!)
        request.httpMethod = "GET"
        request.allHTTPHeaderFields = ["Accept": "application/json"]
        return request
    }
}

// MARK: - 10 fields

/// 3 headers, 4 query items (one an array, one `nil`, one needing
/// percent-encoding) and 3 JSON members.
///
/// `POST /v1/posts?page=2&tags=swift&tags=linux&q=swift%20concurrency`
/// with body `{"title":"Release notes","count":3,"draft":false}`.
struct Encode10Request: JSONDecodableRequest, RequestConfiguration {
    @Header("Authorization") var authorization: String? = "Bearer 7f3c9a1e5b2d4f60"
    @Header("X-Request-ID") var requestID: String? = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    @Header("Accept-Language") var language: String? = "en-US"
    @Query("page") var page = 2
    @Query("tags") var tags = ["swift", "linux"]
    @Query("sort") var sort: String? = nil
    @Query("q") var q = "swift concurrency"
    @JSON("title") var title = "Release notes"
    @JSON("count") var count = 3
    @JSON("draft") var draft = false

    struct Response: Decodable { var id: Int }

    var base: URL { Endpoint.base }
    var path: String { "posts" }
    var method: HTTPMethod { .post }
    var configuration: Self { self }
}

enum HandWritten10 {
    static func minimal(_ r: Encode10Request) -> URLRequest {
        // `q` ("swift concurrency") is written pre-encoded; `sort` is nil and left out.
        let url = URL(
            string:
                "\(Endpoint.baseString)/posts?page=\(r.page)&tags=\(r.tags[0])&tags=\(r.tags[1])&q=swift%20concurrency"
        )!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.allHTTPHeaderFields = [
            "Authorization": r.authorization!,
            "X-Request-ID": r.requestID!,
            "Accept-Language": r.language!,
            "Content-Type": "application/json",
            "Accept": "application/json",
        ]
        request.httpBody = Data(#"{"title":"\#(r.title)","count":\#(r.count),"draft":\#(r.draft)}"#.utf8)
        return request
    }

    struct Body: Encodable {
        var title: String
        var count: Int
        var draft: Bool
    }

    /// Shared, as typical code keeps one encoder around.
    static let encoder = JSONEncoder()

    static func typical(_ r: Encode10Request) throws -> URLRequest {
        var components = URLComponents(string: Endpoint.baseString + "/posts")!
        var items = [URLQueryItem(name: "page", value: String(r.page))]
        for tag in r.tags {
            items.append(URLQueryItem(name: "tags", value: tag))
        }
        if let sort = r.sort {
            items.append(URLQueryItem(name: "sort", value: sort))
        }
        items.append(URLQueryItem(name: "q", value: r.q))
        components.queryItems = items
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue(r.authorization, forHTTPHeaderField: "Authorization")
        request.setValue(r.requestID, forHTTPHeaderField: "X-Request-ID")
        request.setValue(r.language, forHTTPHeaderField: "Accept-Language")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try encoder.encode(Body(title: r.title, count: r.count, draft: r.draft))
        return request
    }
}

// MARK: - 30 fields

/// The 10 fields of ``Encode10Request`` (same keys, types and order) plus 20
/// optional ones: 7 headers, 7 query items and 6 JSON members, so 10 headers,
/// 11 query items and 9 JSON members in all.
///
/// - ``full``: every field has a value (`sort` too).
/// - ``twentyNil``: the 20 extra fields are `nil`, the rest as in
///   ``Encode10Request``, so it builds exactly the same `URLRequest` as that one
///   — the difference in cost is what 20 `nil` fields cost.
struct Encode30Request: JSONDecodableRequest, RequestConfiguration {
    @Header("Authorization") var authorization: String? = "Bearer 7f3c9a1e5b2d4f60"
    @Header("X-Request-ID") var requestID: String? = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    @Header("Accept-Language") var language: String? = "en-US"
    @Header("X-Client-Version") var clientVersion: String? = nil
    @Header("X-Device-ID") var deviceID: String? = nil
    @Header("X-Trace-ID") var traceID: String? = nil
    @Header("X-Tenant") var tenant: String? = nil
    @Header("X-Feature-Flags") var featureFlags: String? = nil
    @Header("If-None-Match") var ifNoneMatch: String? = nil
    @Header("User-Agent") var userAgent: String? = nil
    @Query("page") var page = 2
    @Query("tags") var tags = ["swift", "linux"]
    @Query("sort") var sort: String? = nil
    @Query("q") var q = "swift concurrency"
    @Query("per_page") var perPage: Int? = nil
    @Query("order") var order: String? = nil
    @Query("since") var since: Int? = nil
    @Query("include_drafts") var includeDrafts: Bool? = nil
    @Query("lang") var lang: String? = nil
    @Query("author") var author: String? = nil
    @Query("fields") var fields: String? = nil
    @JSON("title") var title = "Release notes"
    @JSON("count") var count = 3
    @JSON("draft") var draft = false
    @JSON("summary") var summary: String? = nil
    @JSON("priority") var priority: Int? = nil
    @JSON("score") var score: Double? = nil
    @JSON("pinned") var pinned: Bool? = nil
    @JSON("category") var category: String? = nil
    @JSON("labels") var labels: [String]? = nil

    struct Response: Decodable { var id: Int }

    var base: URL { Endpoint.base }
    var path: String { "posts" }
    var method: HTTPMethod { .post }
    var configuration: Self { self }

    /// The 20 extra fields are `nil`: the same request as ``Encode10Request``.
    static let twentyNil = Encode30Request()

    /// Every field has a value.
    static let full: Encode30Request = {
        var r = Encode30Request()
        r.sort = "updated"
        r.clientVersion = "4.2.1"
        r.deviceID = "d41d8cd98f00b204"
        r.traceID = "00-4bf92f3577b34da6-00f067aa0ba902b7-01"
        r.tenant = "acme"
        r.featureFlags = "new-feed,compact-ui"
        r.ifNoneMatch = "\"33a64df551425fcc\""
        r.userAgent = "APIKitBench/1.0"
        r.perPage = 50
        r.order = "desc"
        r.since = 1_700_000_000
        r.includeDrafts = true
        r.lang = "en"
        r.author = "ada"
        r.fields = "id,title,count"
        r.summary = "Faster builds"
        r.priority = 2
        r.score = 0.75
        r.pinned = true
        r.category = "news"
        r.labels = ["release", "swift"]
        return r
    }()
}

enum HandWritten30 {
    /// The same request as ``Encode30Request/full``.
    static func minimal(_ r: Encode30Request) -> URLRequest {
        let labels = r.labels!
        let url = URL(
            string: "\(Endpoint.baseString)/posts?page=\(r.page)&tags=\(r.tags[0])&tags=\(r.tags[1])"
                + "&sort=\(r.sort!)&q=swift%20concurrency&per_page=\(r.perPage!)&order=\(r.order!)"
                + "&since=\(r.since!)&include_drafts=\(r.includeDrafts!)&lang=\(r.lang!)&author=\(r.author!)"
                + "&fields=id%2Ctitle%2Ccount"
        )!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.allHTTPHeaderFields = [
            "Authorization": r.authorization!,
            "X-Request-ID": r.requestID!,
            "Accept-Language": r.language!,
            "X-Client-Version": r.clientVersion!,
            "X-Device-ID": r.deviceID!,
            "X-Trace-ID": r.traceID!,
            "X-Tenant": r.tenant!,
            "X-Feature-Flags": r.featureFlags!,
            "If-None-Match": r.ifNoneMatch!,
            "User-Agent": r.userAgent!,
            "Content-Type": "application/json",
            "Accept": "application/json",
        ]
        request.httpBody = Data(
            (#"{"title":"\#(r.title)","count":\#(r.count),"draft":\#(r.draft),"summary":"\#(r.summary!)""#
                + #","priority":\#(r.priority!),"score":\#(r.score!),"pinned":\#(r.pinned!)"#
                + #","category":"\#(r.category!)","labels":["\#(labels[0])","\#(labels[1])"]}"#).utf8
        )
        return request
    }

    /// The same request as ``Encode30Request/twentyNil``: a person writing it
    /// by hand leaves the `nil` fields out, so this is ``HandWritten10/minimal(_:)``
    /// reading the same values from the 30-field struct.
    static func minimalTwentyNil(_ r: Encode30Request) -> URLRequest {
        let url = URL(
            string:
                "\(Endpoint.baseString)/posts?page=\(r.page)&tags=\(r.tags[0])&tags=\(r.tags[1])&q=swift%20concurrency"
        )!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.allHTTPHeaderFields = [
            "Authorization": r.authorization!,
            "X-Request-ID": r.requestID!,
            "Accept-Language": r.language!,
            "Content-Type": "application/json",
            "Accept": "application/json",
        ]
        request.httpBody = Data(#"{"title":"\#(r.title)","count":\#(r.count),"draft":\#(r.draft)}"#.utf8)
        return request
    }
}

// MARK: - Form, path and a user's wrapper

/// A user's own wrapper over the public ``QueryProtocol``: a page and its size as two
/// query items, built as an array of ``QueryParameter`` on every request.
@propertyWrapper
struct Paging: QueryProtocol, Sendable {
    var wrappedValue: Page

    struct Page: Sendable {
        var number: Int
        var size: Int
    }

    var queryParameters: [QueryParameter] {
        [
            QueryParameter(key: "page", value: wrappedValue.number),
            QueryParameter(key: "per_page", value: wrappedValue.size),
        ]
    }
}

/// The wrappers besides `@Header`, `@Query` and `@JSON`: a `@PathSegment`, three `@Field`s
/// and a user's wrapper (``Paging``), with one header.
///
/// `PUT /v1/users/42/profile?page=2&per_page=50` with the form body
/// `name=Ada&age=36&newsletter=true`.
struct EncodeMixedRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("Authorization") var authorization: String? = "Bearer 7f3c9a1e5b2d4f60"
    @PathSegment("id") var id = 42
    @Paging var paging = Paging.Page(number: 2, size: 50)
    @Field("name") var name = "Ada"
    @Field("age") var age = 36
    @Field("newsletter") var newsletter = true

    struct Response: Decodable { var id: Int }

    var base: URL { Endpoint.base }
    var path: String { "users/{id}/profile" }
    var method: HTTPMethod { .put }
}

enum HandWrittenMixed {
    static func minimal(_ r: EncodeMixedRequest) -> URLRequest {
        let url = URL(
            string: "\(Endpoint.baseString)/users/\(r.id)/profile?page=\(r.paging.number)&per_page=\(r.paging.size)"
        )!
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.allHTTPHeaderFields = [
            "Authorization": r.authorization!,
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
            "Accept": "application/json",
        ]
        request.httpBody = Data("name=\(r.name)&age=\(r.age)&newsletter=\(r.newsletter)".utf8)
        return request
    }
}

// MARK: - Built-in wrappers of other types

/// Built-in wrappers the serializer does not read in place — a `Date` in the query and in the
/// JSON body, `@QueryDict`, `@KeyQuery`, `@HeaderDict` — beside a `@Header` and a `@JSON` it does:
/// the fields that declare their parameters per request.
///
/// `POST /v1/issues?since=2023-11-14T22%3A13%3A20Z&label=bug&state=open&verbose` with
/// `{"due":"2023-11-14T22:13:20Z","title":"Ship"}`.
struct EncodeDeclaredRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("Authorization") var authorization: String? = "Bearer 7f3c9a1e5b2d4f60"
    @HeaderDict var extra = ["X-Tenant": "acme"]
    @Query("since") var since = Date(timeIntervalSince1970: 1_700_000_000)
    @QueryDict var filters: [String: String]? = ["state": "open", "label": "bug"]
    @KeyQuery("verbose") var verbose = true
    @JSON("due") var due = Date(timeIntervalSince1970: 1_700_000_000)
    @JSON("title") var title = "Ship"

    struct Response: Decodable { var id: Int }

    var base: URL { Endpoint.base }
    var path: String { "issues" }
    var method: HTTPMethod { .post }
}

enum HandWrittenDeclared {
    /// A formatter made once, as careful hand-written code keeps one.
    nonisolated(unsafe) static let dates = ISO8601DateFormatter()

    static func minimal(_ r: EncodeDeclaredRequest) -> URLRequest {
        let since = dates.string(from: r.since).replacingOccurrences(of: ":", with: "%3A")
        let filters = (r.filters ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
            separator: "&")
        let url = URL(string: "\(Endpoint.baseString)/issues?since=\(since)&\(filters)\(r.verbose ? "&verbose" : "")")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        var headers = r.extra
        headers["Authorization"] = r.authorization
        headers["Content-Type"] = "application/json"
        headers["Accept"] = "application/json"
        request.allHTTPHeaderFields = headers
        request.httpBody = Data(#"{"due":"\#(dates.string(from: r.due))","title":"\#(r.title)"}"#.utf8)
        return request
    }
}

/// The fixture instances the benchmarks encode.
let encode1 = Encode1Request()
let encode10 = Encode10Request()
let encodeMixed = EncodeMixedRequest()
let encodeDeclared = EncodeDeclaredRequest()
