// The soak run: many requests against a local httpbin, checking that none is lost, none
// completes twice, and that memory and file descriptors stay flat after warm-up.
//
//   bash scripts/soak.sh                 # 20,000 requests, 50 in flight
//   bash scripts/soak.sh 5000 20         # count, in flight
//
// Mix: 70% `GET /get?i=N` decoded as JSON, 10% `/status/404`, 10% `/status/503` retried
// (3 attempts each), and 10% `/delay/1` cancelled after 0–50 ms. Then every fault of
// scripts/servers/faultserver.py 10 times. Exits 1 (printing why) on any lost or repeated
// completion, a wrong outcome, fd growth, or resident memory growing by more than 32 MB
// after warm-up.

import APIKit
import Foundation

struct Echo: Decodable, Sendable {
    var args: [String: String]
}

struct EchoRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo
    @Query("i") var index = 0
    var base: URL
    var path: String { "get" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
}

struct PathRequest: Request, RequestConfiguration {
    var base: URL
    var path: String
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 2) }
}

/// Counts outcomes; every completion is checked against the request's kind.
final class Tally: @unchecked Sendable {
    // All state is read and written with `lock` held.
    private let lock = NSLock()
    private var completions: [Int]
    private var problems: [String] = []
    private(set) var finished = 0
    private var outcomes: [String: Int] = [:]

    init(count: Int) { completions = Array(repeating: 0, count: count) }

    func record(_ index: Int, outcome: String, problem: String?) {
        lock.lock()
        defer { lock.unlock() }
        completions[index] += 1
        if completions[index] == 1 { finished += 1 }
        if completions[index] == 2 { problems.append("request \(index) completed twice") }
        outcomes[outcome, default: 0] += 1
        if let problem, problems.count < 20 { problems.append("request \(index): \(problem)") }
    }

    var snapshot: (finished: Int, lost: [Int], problems: [String], outcomes: [String: Int]) {
        lock.lock()
        defer { lock.unlock() }
        let lost = completions.indices.filter { completions[$0] == 0 }
        return (finished, lost, problems, outcomes)
    }
}

func residentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return -1 }
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    return kilobytes / 1024
}

func openFileDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 20_000
let inFlight = arguments.dropFirst().first ?? 50
guard let baseText = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"], let base = URL(string: baseText) else {
    print("soak: APIKIT_HTTPBIN_URL is not set (run bash scripts/soak.sh)")
    exit(2)
}

let configuration = URLSessionConfiguration.ephemeral
configuration.httpMaximumConnectionsPerHost = inFlight
let transport = URLSessionTransport(configuration: configuration)
let session = Session(transport: transport)
/// For the 503s: three attempts each, with short backoffs, so the soak goes through retries.
let retrying = Session(
    transport: transport,
    retryPolicy: RetryPolicy(
        maxAttempts: 3, backoff: .init(baseDelay: 0.01, multiplier: 2, maxDelay: 0.05, jitter: true))
)
let tally = Tally(count: count)
let slots = DispatchSemaphore(value: inFlight)
let warmUp = min(1_000, count / 10)
var rssAfterWarmUp = 0.0
var fdsAfterWarmUp = 0
let started = Date()

for index in 0..<count {
    if index == warmUp {
        // Let the warm-up requests finish so the baseline is taken at rest.
        while tally.finished < warmUp { usleep(10_000) }
        rssAfterWarmUp = residentMegabytes()
        fdsAfterWarmUp = openFileDescriptors()
    }
    slots.wait()
    switch index % 10 {
    case 0:
        PathRequest(base: base, path: "status/404").perform(using: session) { result in
            if case .failure(let error) = result, error.statusCode == 404 {
                tally.record(index, outcome: "404", problem: nil)
            } else {
                tally.record(index, outcome: "wrong", problem: "expected 404, got \(result)")
            }
            slots.signal()
        }
    case 1:
        PathRequest(base: base, path: "status/503").perform(using: retrying) { result in
            if case .failure(let error) = result, error.statusCode == 503, error.context.attempts == 3 {
                tally.record(index, outcome: "503 after 3 attempts", problem: nil)
            } else {
                tally.record(index, outcome: "wrong", problem: "expected 503 after 3 attempts, got \(result)")
            }
            slots.signal()
        }
    case 2:
        let handle = PathRequest(base: base, path: "delay/1").perform(using: session) { result in
            if case .failure(let error) = result, error.stage == .cancelled {
                tally.record(index, outcome: "cancelled", problem: nil)
            } else {
                tally.record(index, outcome: "wrong", problem: "expected cancelled, got \(result)")
            }
            slots.signal()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0...50))) {
            handle.cancel()
        }
    default:
        EchoRequest(index: index, base: base).perform(using: session) { result in
            if case .success(let echo) = result, echo.args["i"] == String(index) {
                tally.record(index, outcome: "200", problem: nil)
            } else {
                tally.record(index, outcome: "wrong", problem: "expected the echo of \(index), got \(result)")
            }
            slots.signal()
        }
    }
}

let deadline = Date().addingTimeInterval(60)
while tally.finished < count, Date() < deadline { usleep(10_000) }
let elapsed = Date().timeIntervalSince(started)
// Idle connections may close; give the transport a moment before counting descriptors.
sleep(1)
let rssAtEnd = residentMegabytes()
let fdsAtEnd = openFileDescriptors()
let result = tally.snapshot

print(
    "soak: \(count) requests, \(inFlight) in flight, \(String(format: "%.1f", elapsed)) s "
        + "(\(Int(Double(count) / elapsed)) req/s)")
print(
    "soak: outcomes \(result.outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))"
)
print("soak: completed \(result.finished) of \(count); lost \(result.lost.count); problems \(result.problems.count)")
print(
    "soak: resident memory after warm-up \(String(format: "%.1f", rssAfterWarmUp)) MB, at end "
        + "\(String(format: "%.1f", rssAtEnd)) MB; open fds \(fdsAfterWarmUp) → \(fdsAtEnd)")

var failed = false

// Faults (when scripts/soak.sh started the fault server): every fault 10 times, then the
// open descriptors must be back where they were.
if let faultText = ProcessInfo.processInfo.environment["APIKIT_FAULT_URL"], let faultBase = URL(string: faultText) {
    let faults = [
        "reset-before-status", "reset-mid-headers", "reset-mid-body", "short-body", "never", "drip-stall",
        "malformed-status", "invalid-header", "huge-headers", "corrupt-gzip", "redirect-loop", "ok",
    ]
    let fdsBefore = openFileDescriptors()
    let group = DispatchGroup()
    let completions = Tally(count: faults.count * 10)
    let faultsStarted = Date()
    for round in 0..<10 {
        for (offset, fault) in faults.enumerated() {
            let index = round * faults.count + offset
            group.enter()
            PathRequest(base: faultBase, path: fault).perform(using: session) { result in
                completions.record(index, outcome: (try? result.get()) == nil ? "failed" : "answered", problem: nil)
                group.leave()
            }
        }
        _ = group.wait(timeout: .now() + 30)
    }
    sleep(1)
    let fdsAfter = openFileDescriptors()
    let faultResult = completions.snapshot
    print(
        "soak: faults: \(faults.count) kinds × 10 in \(String(format: "%.1f", Date().timeIntervalSince(faultsStarted))) s, "
            + "completed \(faultResult.finished), lost \(faultResult.lost.count), repeated \(faultResult.problems.count); "
            + "open fds \(fdsBefore) → \(fdsAfter)")
    if !faultResult.lost.isEmpty || !faultResult.problems.isEmpty {
        print("soak: FAIL: fault requests lost or completed twice: \(faultResult.problems)")
        failed = true
    }
    if fdsAfter > fdsBefore + faults.count {
        print("soak: FAIL: open file descriptors grew from \(fdsBefore) to \(fdsAfter) over the faults")
        failed = true
    }
}
if !result.lost.isEmpty {
    print("soak: FAIL: lost completions, first: \(result.lost.prefix(10))")
    failed = true
}
if !result.problems.isEmpty {
    print("soak: FAIL:\n  " + result.problems.joined(separator: "\n  "))
    failed = true
}
if fdsAtEnd > fdsAfterWarmUp + inFlight {
    print("soak: FAIL: open file descriptors grew from \(fdsAfterWarmUp) to \(fdsAtEnd)")
    failed = true
}
if rssAtEnd - rssAfterWarmUp > 32 {
    print("soak: FAIL: resident memory grew by \(String(format: "%.1f", rssAtEnd - rssAfterWarmUp)) MB")
    failed = true
}
exit(failed ? 1 : 0)
