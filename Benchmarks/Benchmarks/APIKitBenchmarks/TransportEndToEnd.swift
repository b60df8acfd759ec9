// The same end-to-end GET as EndToEnd.swift, sent by four clients in one interleaved
// benchmark, to compare the transports behind `Session`:
//
//   "URLSessionTransport"   Session(transport: URLSessionTransport()).perform
//   "Session()"             Session().perform: whatever transport Session() defaults to, as
//                           most apps send (the `.default` configuration: 6 connections per host)
//   "AsyncHTTPClientTransport"  Session(transport: AsyncHTTPClientTransport(client:)).perform
//   "raw AsyncHTTPClient"   client.execute, check the status, collect the body, decode it
//                           with one shared JSONDecoder: the same work, without APIKit
//
// Both AsyncHTTPClient sides share one client whose pool allows 64 HTTP/1.1 connections per
// host, like the URLSession configuration of the other e2e benchmarks. Each iteration runs
// one batch per client, in rotating order (sequential: one request; 50 in flight: 500 requests
// from 50 tasks, each sending its next as soon as its last ended), and records each client's
// requests per second,
// latency (start to completion) and process CPU time per request, so that whatever else the
// machine does slows all four alike.

import APIKit
import APIKitAsyncHTTPClient
import AsyncHTTPClient
import Benchmark
import Dispatch
import NIOCore
import NIOFoundationCompat

/// The AsyncHTTPClient both AsyncHTTPClient sides use, made once per process.
let benchmarkHTTPClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    configuration.timeout.read = .seconds(30)
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()

/// One `Session` per transport, as an app would make them once.
private let urlSessionTransportSession = Session(transport: URLSessionTransport())
private let defaultSession = Session()
private let asyncHTTPClientSession = Session(transport: AsyncHTTPClientTransport(client: benchmarkHTTPClient))

/// Which transport sends the end-to-end request.
enum TransportClient: CaseIterable, Sendable {
    case urlSessionTransport
    case sessionDefault
    case asyncHTTPClientTransport
    case rawAsyncHTTPClient

    var label: String {
        switch self {
        case .urlSessionTransport: "URLSessionTransport"
        case .sessionDefault: "Session()"
        case .asyncHTTPClientTransport: "AsyncHTTPClientTransport"
        case .rawAsyncHTTPClient: "raw AsyncHTTPClient"
        }
    }

    /// Sends one request; returns its error, if any.
    func send(base: String) async -> (any Error)? {
        let request = ItemsRequest(base: URL(string: base)!)
        switch self {
        case .urlSessionTransport, .sessionDefault, .asyncHTTPClientTransport:
            let session =
                switch self {
                case .urlSessionTransport: urlSessionTransportSession
                case .sessionDefault: defaultSession
                default: asyncHTTPClientSession
                }
            do {
                blackHole(try await request.response(using: session))
                return nil
            } catch {
                return error
            }
        case .rawAsyncHTTPClient:
            do {
                blackHole(try await RawAsyncHTTPClientItems.send(request, base: base))
                return nil
            } catch {
                return error
            }
        }
    }

    /// Sends `total` requests from `inFlight` tasks, each sending its share one after the
    /// other, and waits for all of them: the latency of each, and the first error.
    func batch(inFlight: Int, total: Int, base: String) async -> (latencies: [UInt64], error: (any Error)?) {
        let workers = min(inFlight, total)
        return await withTaskGroup(of: ([UInt64], (any Error)?).self) { group in
            for worker in 0..<workers {
                // Shares differ by one at most: worker w sends requests w, w + workers, ...
                let share = (total - worker + workers - 1) / workers
                group.addTask {
                    var latencies: [UInt64] = []
                    latencies.reserveCapacity(share)
                    var firstError: (any Error)?
                    for _ in 0..<share {
                        let start = DispatchTime.now().uptimeNanoseconds
                        let error = await send(base: base)
                        latencies.append(DispatchTime.now().uptimeNanoseconds - start)
                        if firstError == nil { firstError = error }
                    }
                    return (latencies, firstError)
                }
            }
            var latencies: [UInt64] = []
            latencies.reserveCapacity(total)
            var firstError: (any Error)?
            for await (workerLatencies, error) in group {
                latencies += workerLatencies
                if firstError == nil { firstError = error }
            }
            return (latencies, firstError)
        }
    }
}

/// ``ItemsRequest`` sent with AsyncHTTPClient by hand.
enum RawAsyncHTTPClientItems {
    struct UnexpectedStatus: Error {
        var status: UInt
    }

    static func send(_ r: ItemsRequest, base: String) async throws -> Feed {
        var request = HTTPClientRequest(url: "\(base)/items.json?page=\(r.page)&per_page=\(r.perPage)")
        request.headers.add(name: "Authorization", value: r.authorization!)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await benchmarkHTTPClient.execute(request, timeout: .seconds(30))
        guard (200..<300).contains(response.status.code) else { throw UnexpectedStatus(status: response.status.code) }
        let body = try await response.body.collect(upTo: 16 << 20)
        return try RawItems.decoder.decode(Feed.self, from: body)
    }
}

func registerTransportBenchmarks() {
    guard let base = endToEndBase else { return }
    let sides = TransportClient.allCases.map { client in
        InterleavedSide(label: client.label) { inFlight, total in
            await client.batch(inFlight: inFlight, total: total, base: base)
        }
    }
    interleavedBenchmark("Transports GET sequential, interleaved", inFlight: 1, sides: sides, maxDuration: (10, 15))
    // 50 kept in flight: 500 requests a batch, a new one as soon as one ends (as a load
    // generator does), so that the slowest request of 50 does not decide the batch's time.
    interleavedBenchmark(
        "Transports GET 50 in flight, interleaved", inFlight: 50, total: 500, sides: sides, maxDuration: (10, 15))
}
