// EndToEndCounts apikit|raw|session|traffic|cache BATCHES [IN_FLIGHT]
//
// Sends one warm-up batch, then BATCHES batches of IN_FLIGHT (default 50) requests
// started together, each batch waited for, to the server at APIKIT_BENCH_URL. The
// apikit and raw sides are the end-to-end benchmarks' own (EndToEndFixtures.swift, linked
// here): the same request, the same hand-written client (status check, decoding into `Feed`
// with one shared `JSONDecoder`) and the same session. `session` sends the request with
// `perform(using:)` through a `Session` over a `URLSessionTransport` of the same
// configuration; `traffic` does the same with a `TrafficControl` whose limits are never
// reached in the session's interceptors: the two differ by what that link costs. `cache` does
// the same with an `HTTPCache` over a `MemoryCacheStore` instead: the fixture server answers
// every request `Cache-Control: no-store`, so each call is a miss that stores nothing, and the
// difference from `session` is what a configured cache costs a call it cannot answer.

import APIKit
import Dispatch

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["apikit", "raw", "session", "traffic", "cache"].contains(arguments[1]),
    let batches = Int(arguments[2]),
    let base = ProcessInfo.processInfo.environment["APIKIT_BENCH_URL"]
else {
    FileHandle.standardError.write(Data("usage: APIKIT_BENCH_URL=http://... EndToEndCounts apikit|raw|session|traffic|cache BATCHES [IN_FLIGHT]\n".utf8))
    exit(2)
}
let side = arguments[1]
let inFlight = arguments.count > 3 ? Int(arguments[3]) ?? 50 : 50

let session = endToEndSession
let links: [any Interceptor] =
    switch side {
    case "traffic": [TrafficControl(maxCallsInFlight: 100_000, maxCallsInFlightPerHost: 100_000)]
    case "cache": [HTTPCache()]
    default: []
    }
let apiSession = Session(transport: URLSessionTransport(configuration: endToEndConfiguration()), interceptors: links)

func send(_ done: @escaping @Sendable () -> Void) {
    let request = ItemsRequest(base: URL(string: base)!)
    if ["session", "traffic", "cache"].contains(side) {
        request.perform(using: apiSession) { result in
            guard case .success(let feed) = result else { fatalError("request failed: \(result)") }
            precondition(!feed.users.isEmpty)
            done()
        }
    } else if side == "apikit" {
        request.perform(session: session) { result in
            guard case .success(let feed) = result else { fatalError("request failed: \(result)") }
            precondition(!feed.users.isEmpty)
            done()
        }
    } else {
        RawItems.send(RawItems.urlRequest(request, base: base), session: session) { result in
            guard case .success(let feed) = result else { fatalError("request failed: \(result)") }
            precondition(!feed.users.isEmpty)
            done()
        }
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
