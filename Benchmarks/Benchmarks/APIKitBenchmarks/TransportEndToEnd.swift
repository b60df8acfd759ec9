// The same end-to-end GET as EndToEnd.swift, sent by three clients in one interleaved
// benchmark, to compare the transports behind `Session`:
//
//   "URLSessionTransport"   Session(transport: URLSessionTransport()).perform
//   "AsyncHTTPClientTransport"  Session(transport: AsyncHTTPClientTransport(client:)).perform
//   "raw AsyncHTTPClient"   client.execute, check the status, collect the body, decode it
//                           with one shared JSONDecoder: the same work, without APIKit
//
// Both AsyncHTTPClient sides share one client whose pool allows 64 HTTP/1.1 connections per
// host, like the URLSession configuration of the other e2e benchmarks. Each iteration runs
// one batch per client, in rotating order, and records each client's requests per second,
// latency (start to completion) and process CPU time per request, so that whatever else the
// machine does slows all three alike.

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
private let asyncHTTPClientSession = Session(transport: AsyncHTTPClientTransport(client: benchmarkHTTPClient))

/// Which transport sends the end-to-end request.
enum TransportClient: CaseIterable, Sendable {
    case urlSessionTransport
    case asyncHTTPClientTransport
    case rawAsyncHTTPClient

    var label: String {
        switch self {
        case .urlSessionTransport: "URLSessionTransport"
        case .asyncHTTPClientTransport: "AsyncHTTPClientTransport"
        case .rawAsyncHTTPClient: "raw AsyncHTTPClient"
        }
    }

    /// Sends one request; returns its error, if any.
    func send(base: String) async -> (any Error)? {
        let request = ItemsRequest(base: URL(string: base)!)
        switch self {
        case .urlSessionTransport, .asyncHTTPClientTransport:
            let session = self == .urlSessionTransport ? urlSessionTransportSession : asyncHTTPClientSession
            do {
                blackHole(try await session.response(for: request))
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

    /// Sends `count` requests at once and waits for all of them: the latency of each, and the
    /// first error.
    func batch(_ count: Int, base: String) async -> (latencies: [UInt64], error: (any Error)?) {
        await withTaskGroup(of: (UInt64, (any Error)?).self) { group in
            for _ in 0..<count {
                group.addTask {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let error = await send(base: base)
                    return (DispatchTime.now().uptimeNanoseconds - start, error)
                }
            }
            var latencies: [UInt64] = []
            latencies.reserveCapacity(count)
            var firstError: (any Error)?
            for await (latency, error) in group {
                latencies.append(latency)
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

/// The three clients, interleaved: see the top of the file.
private func transportBenchmark(_ name: String, inFlight: Int, base: String) {
    let sides = TransportClient.allCases.map { client in
        (
            client: client,
            rps: BenchmarkMetric.custom(
                "\(client.label) requests per s", polarity: .prefersLarger, useScalingFactor: false),
            latency: BenchmarkMetric.custom(
                "\(client.label) latency in µs", polarity: .prefersSmaller, useScalingFactor: false),
            cpu: BenchmarkMetric.custom(
                "\(client.label) CPU in µs per request", polarity: .prefersSmaller, useScalingFactor: false)
        )
    }
    let metrics = sides.flatMap { [$0.rps, $0.latency, $0.cpu] }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident] + metrics,
        timeUnits: .microseconds,
        units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
        warmupIterations: inFlight == 1 ? 50 : 5,
        scalingFactor: .one,
        maxDuration: .seconds(inFlight == 1 ? 10 : 15),
        maxIterations: inFlight == 1 ? 10_000 : 1_000,
        setup: {
            // Open the connections and check each client decodes what the server answers.
            for side in sides {
                let (_, error) = await side.client.batch(inFlight, base: base)
                if let error {
                    throw EndToEndSetupFailed(
                        description: "\(name): warm-up request to \(base) with \(side.client.label) failed: \(error)")
                }
            }
        }
    )
    Benchmark(name, configuration: configuration) { benchmark in
        var iteration = 0
        for _ in benchmark.scaledIterations {
            // Rotate who goes first, so that no client always runs right after another.
            let first = iteration % sides.count
            iteration += 1
            for side in sides[first...] + sides[..<first] {
                let cpuStart = processCPUNanoseconds()
                let start = DispatchTime.now().uptimeNanoseconds
                let (latencies, error) = await side.client.batch(inFlight, base: base)
                let elapsed = max(DispatchTime.now().uptimeNanoseconds - start, 1)
                let cpu = processCPUNanoseconds() - cpuStart
                if let error {
                    benchmark.error("\(name): \(side.client.label) request failed: \(error)")
                    return
                }
                benchmark.measurement(side.rps, Int((UInt64(inFlight) * 1_000_000_000) / elapsed))
                benchmark.measurement(side.cpu, Int(cpu / UInt64(inFlight) / 1_000))
                for latency in latencies {
                    benchmark.measurement(side.latency, Int(latency / 1_000))
                }
            }
        }
    }
}

func registerTransportBenchmarks() {
    guard let base = endToEndBase else { return }
    transportBenchmark("Transports GET sequential, interleaved", inFlight: 1, base: base)
    transportBenchmark("Transports GET 50 in flight, interleaved", inFlight: 50, base: base)
}
