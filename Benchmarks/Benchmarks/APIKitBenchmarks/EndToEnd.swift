// End to end over loopback: `perform` against a raw `URLSession` data task for
// the same GET request, against the server at APIKIT_BENCH_URL (scripts/
// benchmark.sh starts nginx serving Benchmarks/Fixtures/items.json and sets
// it). Without the variable these benchmarks are not registered.
//
// Both sides do the same work: build the `URLRequest`, send it, check the
// status is 2xx and decode the body into `Feed` with one `JSONDecoder` shared
// by all requests, which is what `JSONDecodableRequest`'s `JSONParser()` does
// (a new decoder per request on the raw side only would be a cost APIKit does
// not pay). They share one session configuration: `.ephemeral`, no URL cache,
// 64 connections per host.
//
// One iteration of "sequential" is one request; one iteration of "50 in
// flight" is 50 requests started together and all finished. Two custom
// metrics make both comparable: `Requests per s` (per iteration) and
// `Latency in µs` (per request, from start to completion handler).

import APIKit
import Benchmark
import Dispatch

let endToEndURLVariable = "APIKIT_BENCH_URL"

/// The server's base URL without a trailing `/`, or `nil` when the e2e benchmarks are off.
let endToEndBase: String? = {
    guard var value = ProcessInfo.processInfo.environment[endToEndURLVariable], !value.isEmpty else { return nil }
    while value.hasSuffix("/") { value.removeLast() }
    return value
}()

/// A value that callbacks on other threads write and the benchmark reads after they finished.
private final class Batch: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private var started = 0
    private var latencies: [UInt64]
    private var firstError: (any Error)?
    private var continuation: CheckedContinuation<Void, Never>?

    init(count: Int) {
        remaining = count
        latencies = Array(repeating: 0, count: count)
    }

    /// The index of the next request to start, or `nil` when all were started.
    func nextIndex() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard started < latencies.count else { return nil }
        defer { started += 1 }
        return started
    }

    func start(_ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        if remaining == 0 {
            lock.unlock()
            continuation.resume()
        } else {
            self.continuation = continuation
            lock.unlock()
        }
    }

    func finish(_ index: Int, startedAt start: UInt64, error: (any Error)?) {
        let end = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        latencies[index] = end - start
        if let error, firstError == nil { firstError = error }
        remaining -= 1
        let done = remaining == 0 ? continuation : nil
        if done != nil { continuation = nil }
        lock.unlock()
        done?.resume()
    }

    var result: (latencies: [UInt64], error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        return (latencies, firstError)
    }
}

/// Which client sends the request.
enum Client: Sendable {
    case apikit
    case raw

    /// Sends one request and calls `done` when its completion ran.
    func send(base: String, session: URLSession, done: @escaping @Sendable ((any Error)?) -> Void) {
        let request = ItemsRequest(base: URL(string: base)!)
        switch self {
        case .apikit:
            request.perform(session: session) { result in
                switch result {
                case .success(let feed):
                    blackHole(feed)
                    done(nil)
                case .failure(let error):
                    done(error)
                }
            }
        case .raw:
            RawItems.send(RawItems.urlRequest(request, base: base), session: session) { result in
                switch result {
                case .success(let feed):
                    blackHole(feed)
                    done(nil)
                case .failure(let error):
                    done(error)
                }
            }
        }
    }

    /// Sends `count` requests at once and waits for all of them.
    func batch(_ count: Int, base: String, session: URLSession) async -> (latencies: [UInt64], error: (any Error)?) {
        await batch(inFlight: count, total: count, base: base, session: session)
    }

    /// Sends `total` requests, `inFlight` at a time: each completion starts the next request
    /// until all were started; waits for all of them.
    func batch(
        inFlight: Int, total: Int, base: String, session: URLSession
    ) async -> (latencies: [UInt64], error: (any Error)?) {
        let batch = Batch(count: total)
        @Sendable func sendNext() {
            guard let index = batch.nextIndex() else { return }
            let start = DispatchTime.now().uptimeNanoseconds
            send(base: base, session: session) { error in
                batch.finish(index, startedAt: start, error: error)
                sendNext()
            }
        }
        await withCheckedContinuation { continuation in
            for _ in 0..<min(inFlight, total) { sendNext() }
            batch.start(continuation)
        }
        return batch.result
    }
}

private let requestsPerSecond = BenchmarkMetric.custom(
    "Requests per s", polarity: .prefersLarger, useScalingFactor: false)
private let latencyMicroseconds = BenchmarkMetric.custom(
    "Latency in µs", polarity: .prefersSmaller, useScalingFactor: false)

private func endToEndBenchmark(_ name: String, client: Client, inFlight: Int, base: String) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .peakMemoryResident, requestsPerSecond, latencyMicroseconds],
        timeUnits: .microseconds,
        units: [.throughput: .count, requestsPerSecond: .count, latencyMicroseconds: .count],
        warmupIterations: inFlight == 1 ? 50 : 5,
        scalingFactor: .one,
        maxDuration: .seconds(inFlight == 1 ? 4 : 6),
        maxIterations: inFlight == 1 ? 10_000 : 1_000,
        setup: {
            // Open the connections and check the server answers what we decode.
            for _ in 0..<3 {
                let (_, error) = await client.batch(inFlight, base: base, session: endToEndSession)
                if let error {
                    throw EndToEndSetupFailed(description: "\(name): warm-up request to \(base) failed: \(error)")
                }
            }
        }
    )
    Benchmark(name, configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = DispatchTime.now().uptimeNanoseconds
            let (latencies, error) = await client.batch(inFlight, base: base, session: endToEndSession)
            let elapsed = max(DispatchTime.now().uptimeNanoseconds - start, 1)
            if let error {
                benchmark.error("\(name): request failed: \(error)")
                return
            }
            benchmark.measurement(requestsPerSecond, Int((UInt64(inFlight) * 1_000_000_000) / elapsed))
            for latency in latencies {
                benchmark.measurement(latencyMicroseconds, Int(latency / 1_000))
            }
        }
    }
}

// MARK: Interleaved

/// One client of an interleaved benchmark: a label for its metrics and how it sends a batch.
struct InterleavedSide: Sendable {
    var label: String
    /// Sends `total` requests, `inFlight` at a time (a new one as soon as one ends), and waits
    /// for all of them: the latency of each, and the first error.
    var batch: @Sendable (_ inFlight: Int, _ total: Int) async -> (latencies: [UInt64], error: (any Error)?)
}

/// The same work as ``endToEndBenchmark(_:client:inFlight:base:)`` for several clients in one
/// benchmark: each iteration runs one batch per client, in rotating order, and records each
/// side's requests per second, latency and client CPU time in metrics of its own ("LABEL
/// requests per s", ...). Whatever else the machine does in a moment slows every side alike, so
/// the ratios between them hold still where separate benchmarks, seconds apart, drift by 10–30%
/// here.
///
/// - Parameters:
///   - inFlight: How many requests each side keeps in flight.
///   - total: How many requests a batch sends: `inFlight` (the default) starts them all at
///     once, a multiple of it keeps `inFlight` in flight until the last ones end.
func interleavedBenchmark(
    _ name: String, inFlight: Int, total: Int? = nil, sides clients: [InterleavedSide],
    maxDuration: (sequential: Int, batched: Int)
) {
    let total = total ?? inFlight
    let sides = clients.map { client in
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
        maxDuration: .seconds(inFlight == 1 ? maxDuration.sequential : maxDuration.batched),
        maxIterations: inFlight == 1 ? 10_000 : 1_000,
        setup: {
            // Open the connections and check each client decodes what the server answers.
            for side in sides {
                let (_, error) = await side.client.batch(inFlight, total)
                if let error {
                    throw EndToEndSetupFailed(
                        description: "\(name): warm-up request with \(side.client.label) failed: \(error)")
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
                let (latencies, error) = await side.client.batch(inFlight, total)
                let elapsed = max(DispatchTime.now().uptimeNanoseconds - start, 1)
                let cpu = processCPUNanoseconds() - cpuStart
                if let error {
                    benchmark.error("\(name): \(side.client.label) request failed: \(error)")
                    return
                }
                benchmark.measurement(side.rps, Int((UInt64(total) * 1_000_000_000) / elapsed))
                benchmark.measurement(side.cpu, Int(cpu / UInt64(total) / 1_000))
                for latency in latencies {
                    benchmark.measurement(side.latency, Int(latency / 1_000))
                }
            }
        }
    }
}

/// CPU time this process has used, on all its threads (URLSession's included).
func processCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

struct EndToEndSetupFailed: Error, CustomStringConvertible {
    var description: String
}

func registerEndToEndBenchmarks() {
    guard let base = endToEndBase else {
        SkipNotice.printOnce(
            "APIKitBenchmarks: end-to-end benchmarks skipped: \(endToEndURLVariable) is not set "
                + "(bash scripts/benchmark.sh starts nginx and sets it)."
        )
        return
    }
    endToEndBenchmark("E2E GET sequential: APIKit perform", client: .apikit, inFlight: 1, base: base)
    endToEndBenchmark("E2E GET sequential: raw URLSession", client: .raw, inFlight: 1, base: base)
    endToEndBenchmark("E2E GET 50 in flight: APIKit perform", client: .apikit, inFlight: 50, base: base)
    endToEndBenchmark("E2E GET 50 in flight: raw URLSession", client: .raw, inFlight: 50, base: base)
    let sides = [("APIKit", Client.apikit), ("raw", Client.raw)].map { label, client in
        InterleavedSide(label: label) { inFlight, total in
            await client.batch(inFlight: inFlight, total: total, base: base, session: endToEndSession)
        }
    }
    interleavedBenchmark("E2E GET sequential, interleaved", inFlight: 1, sides: sides, maxDuration: (8, 12))
    interleavedBenchmark("E2E GET 50 in flight, interleaved", inFlight: 50, sides: sides, maxDuration: (8, 12))
}
