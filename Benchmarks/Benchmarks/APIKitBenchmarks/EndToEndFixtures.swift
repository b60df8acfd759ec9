// The end-to-end request and its hand-written twin, shared by the end-to-end benchmarks
// (EndToEnd.swift) and the callgrind counts (Benchmarks/EndToEndCounts links this file), so
// that both measure the same two clients.

import APIKit
import Dispatch

/// `GET <base>/items.json?page=1&per_page=20` with an `Authorization` header.
struct ItemsRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("Authorization") var authorization: String? = "Bearer 7f3c9a1e5b2d4f60"
    @Query("page") var page = 1
    @Query("per_page") var perPage = 20

    typealias Response = Feed

    var base: URL
    var path: String { "items.json" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
}

enum RawItems {
    /// One decoder for every request, as `JSONParser()` has (`JSONDecoder` is safe to share).
    static let decoder = JSONDecoder()

    /// ``ItemsRequest`` written by hand (minimal style).
    static func urlRequest(_ r: ItemsRequest, base: String) -> URLRequest {
        var request = URLRequest(url: URL(string: "\(base)/items.json?page=\(r.page)&per_page=\(r.perPage)")!)
        request.httpMethod = "GET"
        request.allHTTPHeaderFields = ["Authorization": r.authorization!, "Accept": "application/json"]
        return request
    }

    /// Sends `urlRequest`, checks the status and decodes the body, like `perform` does.
    static func send(
        _ urlRequest: URLRequest,
        session: URLSession,
        completion: @escaping @Sendable (Result<Feed, any Error>) -> Void
    ) {
        session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                completion(.failure(error))
                return
            }
            guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode), let data else {
                completion(.failure(URLError(.badServerResponse)))
                return
            }
            completion(Result { try decoder.decode(Feed.self, from: data) })
        }.resume()
    }
}

/// The configuration of ``endToEndSession``, each time a new copy: `.ephemeral` (cookies kept
/// in memory), no URL cache, 64 connections per host.
func endToEndConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpMaximumConnectionsPerHost = 64
    configuration.timeoutIntervalForRequest = 30
    return configuration
}

/// One session per process (each benchmark runs in a process of its own), shared by both sides.
let endToEndSession = URLSession(configuration: endToEndConfiguration())
