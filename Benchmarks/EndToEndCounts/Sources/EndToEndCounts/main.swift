// EndToEndCounts apikit|raw BATCHES [IN_FLIGHT]
//
// Sends one warm-up batch, then BATCHES batches of IN_FLIGHT (default 50) requests
// started together, each batch waited for, to the server at APIKIT_BENCH_URL. Both
// sides do what the end-to-end benchmarks' sides do (EndToEnd.swift): the same
// `URLRequest`, status check, decoding into `Feed` with one shared `JSONDecoder`.

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

/// ``ItemsRequest`` written by hand (minimal style), as in the benchmarks.
func rawURLRequest(_ r: ItemsRequest, base: String) -> URLRequest {
    var request = URLRequest(url: URL(string: "\(base)/items.json?page=\(r.page)&per_page=\(r.perPage)")!)
    request.httpMethod = "GET"
    request.allHTTPHeaderFields = ["Authorization": r.authorization!, "Accept": "application/json"]
    return request
}

let rawDecoder = JSONDecoder()

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["apikit", "raw"].contains(arguments[1]), let batches = Int(arguments[2]),
    let base = ProcessInfo.processInfo.environment["APIKIT_BENCH_URL"]
else {
    FileHandle.standardError.write(Data("usage: APIKIT_BENCH_URL=http://... EndToEndCounts apikit|raw BATCHES [IN_FLIGHT]\n".utf8))
    exit(2)
}
let useAPIKit = arguments[1] == "apikit"
let inFlight = arguments.count > 3 ? Int(arguments[3]) ?? 50 : 50

let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpMaximumConnectionsPerHost = 64
    configuration.timeoutIntervalForRequest = 30
    return URLSession(configuration: configuration)
}()

func send(_ done: @escaping @Sendable () -> Void) {
    let request = ItemsRequest(base: URL(string: base)!)
    if useAPIKit {
        request.perform(session: session) { result in
            guard case .success(let feed) = result else { fatalError("request failed: \(result)") }
            precondition(!feed.users.isEmpty)
            done()
        }
    } else {
        session.dataTask(with: rawURLRequest(request, base: base)) { data, response, error in
            guard error == nil, let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
                let data, let feed = try? rawDecoder.decode(Feed.self, from: data)
            else { fatalError("request failed: \(String(describing: error))") }
            precondition(!feed.users.isEmpty)
            done()
        }.resume()
    }
}

func batch() {
    let group = DispatchGroup()
    for _ in 0..<inFlight {
        group.enter()
        send { group.leave() }
    }
    group.wait()
}

batch()  // opens the connections
for _ in 0..<batches {
    batch()
}
