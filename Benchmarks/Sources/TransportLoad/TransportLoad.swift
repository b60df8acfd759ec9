// TransportLoad: the transport benchmarks' end-to-end GET (items.json, 1.7 KB decoded into `Feed`,
// or with --body user the 252-byte user.json decoded into `User`, where a transport's own cost is
// not hidden by the decoding) under load, without package-benchmark: no malloc interposer, no batches, no harness tasks. Each
// client is measured sequentially and with N kept in flight (N workers, each sending its next
// request as soon as its last ended) for a fixed time, in interleaved rounds (A, B, C, A, B, C, …),
// so that whatever else the machine does slows all of them alike. Run by scripts/transport-load.sh.
//
//   APIKIT_BENCH_URL=http://127.0.0.1:PORT TransportLoad [options]
//     --clients a,b,…   of: urlsession urlsession-cb ahc ahc-cb raw raw-future raw-nodecode
//                       perform-urlsession raw-urlsession
//                       [urlsession,ahc,raw]
//     --modes 1,50      workers per mode: 1 is sequential [1,50]
//     --seconds S       length of each client's turn in a round [2.5]
//     --rounds R        [3]
//     --event-loops N   threads of the HTTPClient's own event loop group; 0: the shared singleton
//                       group, as the harness uses (one thread per core) [0]
//     --body B          items (1.7 KB) or user (252 bytes) [items]
//     --tracer T        default (the HTTPClient configuration's own: the bootstrapped tracer, a
//                       no-op one when none is) or none (`tracing.tracer = nil`: no span) [default]
//     --cookie-storage C  of the URLSession clients' configuration: default (`.ephemeral`'s, in
//                       memory) or none (`httpCookieStorage = nil`) [default]
//     --count N         instead of the rounds: 5 requests of each client, then exactly N more of
//                       each, one at a time, and nothing printed. For counting instructions
//                       (scripts/transport-counts.sh runs it under callgrind with N = 0 and N = K:
//                       the difference, divided by K, is one request)
//
// Clients ("-cb": the same client without Swift concurrency: each worker a chain of completion
// handlers, the next request sent from the last one's completion):
//   urlsession   .response(using: Session(transport: URLSessionTransport(configuration:))) from
//                tasks, with the end-to-end benchmark's configuration (`endToEndConfiguration()`)
//   ahc          .response(using: Session(transport: AsyncHTTPClientTransport(client:))) from tasks
//   raw          HTTPClient.execute (async), check the status, collect the body, JSONDecoder
//   raw-future   the same with the EventLoopFuture API (HTTPClient.Request), decoded on the event loop
//   raw-nodecode raw-future without the decoding: AsyncHTTPClient's own cost
//   perform-urlsession  the spec's perform(session:) on the end-to-end benchmark's URLSession
//                       (`endToEndSession`, EndToEndFixtures.swift; with --cookie-storage none
//                       one of the same configuration without a storage), with callbacks
//   raw-urlsession      a dataTask with a completion handler on that URLSession, the status
//                       checked, JSONDecoder: the end-to-end benchmark's raw side
// Before the rounds, the CPU time of decoding the body alone (the same JSONDecoder) is printed.
// Both AsyncHTTPClient sides share one HTTPClient allowing 64 connections per host.

import APIKit
import APIKitAsyncHTTPClient
import AsyncHTTPClient
import Dispatch
import NIOCore
import NIOFoundationCompat
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

struct Options {
    var clients = ["urlsession", "ahc", "raw"]
    var modes = [1, 50]
    var seconds = 2.5
    var rounds = 3
    var eventLoops = 0
    var body = Body.items
    var tracer = true
    var cookieStorage = true
    var count: Int?

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { Self.usage("\(flag) needs a value") }
            switch flag {
            case "--clients": clients = value.split(separator: ",").map(String.init)
            case "--modes": modes = value.split(separator: ",").compactMap { Int($0) }
            case "--seconds": seconds = Double(value) ?? seconds
            case "--rounds": rounds = Int(value) ?? rounds
            case "--event-loops": eventLoops = Int(value) ?? eventLoops
            case "--count": count = Int(value)
            case "--body":
                guard let chosen = Body(rawValue: value) else { Self.usage("unknown body \(value)") }
                body = chosen
            case "--tracer":
                guard ["default", "none"].contains(value) else { Self.usage("unknown tracer \(value)") }
                tracer = value == "default"
            case "--cookie-storage":
                guard ["default", "none"].contains(value) else { Self.usage("unknown cookie storage \(value)") }
                cookieStorage = value == "default"
            default: Self.usage("unknown option \(flag)")
            }
        }
        for client in clients where Client(client) == nil { Self.usage("unknown client \(client)") }
    }

    static func usage(_ message: String) -> Never {
        FileHandle.standardError.write(
            Data(
                "TransportLoad: \(message) (see the top of Benchmarks/Sources/TransportLoad/TransportLoad.swift)\n".utf8
            ))
        exit(2)
    }
}

/// What each client fetches and decodes.
enum Body: String {
    /// `items.json?page=1&per_page=20`: 1.7 KB into ``Feed``.
    case items
    /// `user.json`: 252 bytes into ``User``.
    case user

    var query: String {
        switch self {
        case .items: "items.json?page=1&per_page=20"
        case .user: "user.json"
        }
    }

    /// Decodes `buffer` as this body; whether it held what the fixture holds.
    func decodes(_ buffer: ByteBuffer) -> Bool {
        switch self {
        case .items: (try? RawItems.decoder.decode(Feed.self, from: buffer))?.users.isEmpty == false
        case .user: (try? RawItems.decoder.decode(User.self, from: buffer))?.id == 42
        }
    }

    /// The same for a body URLSession delivered.
    func decodes(_ data: Data) -> Bool {
        switch self {
        case .items: (try? RawItems.decoder.decode(Feed.self, from: data))?.users.isEmpty == false
        case .user: (try? RawItems.decoder.decode(User.self, from: data))?.id == 42
        }
    }
}

/// Benchmarks/Fixtures/user.json.
struct User: Decodable, Sendable {
    struct Team: Decodable, Sendable {
        var id: Int
        var name: String
    }
    var id: Int
    var name: String
    var email: String
    var active: Bool
    var roles: [String]
    var createdAt: String
    var score: Double
    var team: Team
    var tags: [String]
    var note: String
}

/// `GET <base>/user.json` with the same `Authorization` header as ``ItemsRequest``.
struct UserRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("Authorization") var authorization: String? = "Bearer 7f3c9a1e5b2d4f60"

    typealias Response = User

    var base: URL
    var path: String { "user.json" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
}

/// The process-wide objects, made once.
enum Shared {
    static let base: String = {
        guard let base = ProcessInfo.processInfo.environment["APIKIT_BENCH_URL"] else {
            Options.usage("APIKIT_BENCH_URL is not set")
        }
        return base
    }()
    static let url = "\(base)/\(body.query)"
    static let request = ItemsRequest(base: URL(string: base)!)
    static let userRequest = UserRequest(base: URL(string: base)!)
    nonisolated(unsafe) static var eventLoops = 0
    nonisolated(unsafe) static var body = Body.items
    nonisolated(unsafe) static var tracer = true
    nonisolated(unsafe) static var cookieStorage = true

    static let httpClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        configuration.timeout.read = .seconds(30)
        if !tracer {
            configuration.tracing.tracer = nil
        }
        let group: any EventLoopGroup =
            eventLoops > 0
            ? MultiThreadedEventLoopGroup(numberOfThreads: eventLoops) : HTTPClient.defaultEventLoopGroup
        return HTTPClient(eventLoopGroup: group, configuration: configuration)
    }()
    /// The URLSession clients' configuration: the end-to-end benchmark's, without a cookie
    /// storage with `--cookie-storage none`.
    static let urlSessionConfiguration: URLSessionConfiguration = {
        let configuration = endToEndConfiguration()
        if !cookieStorage {
            configuration.httpCookieStorage = nil
        }
        return configuration
    }()
    /// The URLSession of `perform-urlsession` and `raw-urlsession`.
    static let urlSession = cookieStorage ? endToEndSession : URLSession(configuration: urlSessionConfiguration)
    static let urlSessionSession = Session(transport: URLSessionTransport(configuration: urlSessionConfiguration))
    /// The raw side's request, written by hand each time as the end-to-end benchmark's raw side
    /// does (`RawItems.urlRequest`): building it is part of the work APIKit's side does too.
    static func rawURLRequest() -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "GET"
        request.allHTTPHeaderFields = ["Authorization": Shared.request.authorization!, "Accept": "application/json"]
        return request
    }
    static let ahcSession = Session(transport: AsyncHTTPClientTransport(client: httpClient))
}

struct UnexpectedStatus: Error {
    var status: UInt
}

enum Client {
    case urlSession, urlSessionCallback, ahc, ahcCallback, raw, rawFuture, rawNoDecode
    case performURLSession, rawURLSession

    init?(_ name: String) {
        switch name {
        case "urlsession": self = .urlSession
        case "urlsession-cb": self = .urlSessionCallback
        case "ahc": self = .ahc
        case "ahc-cb": self = .ahcCallback
        case "raw": self = .raw
        case "raw-future": self = .rawFuture
        case "raw-nodecode": self = .rawNoDecode
        case "perform-urlsession": self = .performURLSession
        case "raw-urlsession": self = .rawURLSession
        default: return nil
        }
    }

    var label: String {
        switch self {
        case .urlSession: "URLSessionTransport"
        case .urlSessionCallback: "URLSessionTransport, callbacks"
        case .ahc: "AsyncHTTPClientTransport"
        case .ahcCallback: "AsyncHTTPClientTransport, callbacks"
        case .raw: "raw AHC async"
        case .rawFuture: "raw AHC futures"
        case .rawNoDecode: "raw AHC futures, no decoding"
        case .performURLSession: "perform(session:) on a URLSession"
        case .rawURLSession: "raw URLSession dataTask"
        }
    }

    var usesTasks: Bool {
        switch self {
        case .urlSession, .ahc, .raw: true
        case .urlSessionCallback, .ahcCallback, .rawFuture, .rawNoDecode, .performURLSession, .rawURLSession: false
        }
    }

    /// One request from async code; whether it succeeded.
    func send() async -> Bool {
        switch self {
        case .urlSession, .urlSessionCallback:
            return await Self.apikit(Shared.urlSessionSession)
        case .ahc, .ahcCallback:
            return await Self.apikit(Shared.ahcSession)
        case .raw, .rawFuture, .rawNoDecode:
            return (try? await Self.rawAsync()) == true
        case .performURLSession, .rawURLSession:
            return await withCheckedContinuation { continuation in send { continuation.resume(returning: $0) } }
        }
    }

    /// One APIKit request of the chosen body through `session`, from async code.
    static func apikit(_ session: Session) async -> Bool {
        switch Shared.body {
        case .items: (try? await Shared.request.response(using: session))?.users.isEmpty == false
        case .user: (try? await Shared.userRequest.response(using: session))?.id == 42
        }
    }

    /// One APIKit request of the chosen body through `session`, with a completion handler.
    static func apikit(_ session: Session, _ done: @escaping @Sendable (Bool) -> Void) {
        switch Shared.body {
        case .items: Shared.request.perform(using: session) { done((try? $0.get())?.users.isEmpty == false) }
        case .user: Shared.userRequest.perform(using: session) { done((try? $0.get())?.id == 42) }
        }
    }

    /// One request; `done` is called with whether it succeeded.
    func send(_ done: @escaping @Sendable (Bool) -> Void) {
        switch self {
        case .urlSession, .urlSessionCallback:
            Self.apikit(Shared.urlSessionSession, done)
        case .ahc, .ahcCallback:
            Self.apikit(Shared.ahcSession, done)
        case .raw, .rawFuture:
            Self.rawFuture(decoding: true, done)
        case .rawNoDecode:
            Self.rawFuture(decoding: false, done)
        case .performURLSession:
            switch Shared.body {
            case .items:
                Shared.request.perform(session: Shared.urlSession) {
                    done((try? $0.get())?.users.isEmpty == false)
                }
            case .user:
                Shared.userRequest.perform(session: Shared.urlSession) { done((try? $0.get())?.id == 42) }
            }
        case .rawURLSession:
            Shared.urlSession.dataTask(with: Shared.rawURLRequest()) { data, response, error in
                guard error == nil, let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
                    let data
                else { return done(false) }
                done(Shared.body.decodes(data))
            }.resume()
        }
    }

    /// The harness's raw loop (TransportEndToEnd.swift): async execute, collect, decode.
    static func rawAsync() async throws -> Bool {
        var request = HTTPClientRequest(url: Shared.url)
        request.headers.add(name: "Authorization", value: Shared.request.authorization!)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await Shared.httpClient.execute(request, timeout: .seconds(30))
        guard (200..<300).contains(response.status.code) else { throw UnexpectedStatus(status: response.status.code) }
        let body = try await response.body.collect(upTo: 16 << 20)
        return Shared.body.decodes(body)
    }

    /// The same with the EventLoopFuture API: no task, no thread hop; decoded on the event loop.
    static func rawFuture(decoding: Bool, _ done: @escaping @Sendable (Bool) -> Void) {
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(
                url: Shared.url, method: .GET,
                headers: ["Authorization": Shared.request.authorization!, "Accept": "application/json"])
        } catch {
            return done(false)
        }
        Shared.httpClient.execute(request: request, deadline: .now() + .seconds(30)).whenComplete { result in
            guard case .success(let response) = result, (200..<300).contains(response.status.code),
                let body = response.body
            else { return done(false) }
            guard decoding else { return done(body.readableBytes > 0) }
            done(Shared.body.decodes(body))
        }
    }
}

/// What one worker saw: latencies in nanoseconds and failures. A worker's requests follow one
/// another, so one worker's record is never touched by two threads at once.
final class WorkerRecord: @unchecked Sendable {
    var latencies: [UInt64] = []
    var failures = 0

    init() { latencies.reserveCapacity(1 << 16) }

    func record(since start: UInt64, ok: Bool) {
        latencies.append(DispatchTime.now().uptimeNanoseconds &- start)
        if !ok { failures += 1 }
    }
}

/// Runs `workers` workers until `deadline` (uptime nanoseconds); returns when every one ended.
func load(_ client: Client, workers: Int, until deadline: UInt64) -> [WorkerRecord] {
    let records = (0..<workers).map { _ in WorkerRecord() }
    let finished = DispatchSemaphore(value: 0)
    if client.usesTasks {
        // As the harness does: a task group of workers, each awaiting its requests in turn.
        Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for record in records {
                    group.addTask {
                        while DispatchTime.now().uptimeNanoseconds < deadline {
                            let start = DispatchTime.now().uptimeNanoseconds
                            record.record(since: start, ok: await client.send())
                        }
                    }
                }
            }
            finished.signal()
        }
        finished.wait()
    } else {
        // Chains of completion handlers, no Swift concurrency of the probe's own.
        let group = DispatchGroup()
        @Sendable func next(_ record: WorkerRecord) {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return group.leave() }
            let start = DispatchTime.now().uptimeNanoseconds
            client.send { ok in
                record.record(since: start, ok: ok)
                next(record)
            }
        }
        for record in records {
            group.enter()
            next(record)
        }
        group.wait()
    }
    return records
}

/// Sends `times` requests of `client` one after another, from a task or from completion
/// handlers as the client does; exits when one fails.
func send(_ client: Client, times: Int) {
    let finished = DispatchSemaphore(value: 0)
    if client.usesTasks {
        Task.detached {
            for _ in 0..<times where !(await client.send()) { Options.usage("a request of \(client.label) failed") }
            finished.signal()
        }
    } else {
        @Sendable func next(_ remaining: Int) {
            guard remaining > 0 else {
                finished.signal()
                return
            }
            client.send { ok in
                guard ok else { Options.usage("a request of \(client.label) failed") }
                next(remaining - 1)
            }
        }
        next(times)
    }
    finished.wait()
}

/// CPU time of the process, user and system, in seconds.
func processCPU() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Busy CPU-seconds of the whole machine so far (/proc/stat: user, nice, system, irq, softirq).
func machineBusy() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
        let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
    else { return 0 }
    let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard fields.count >= 7 else { return 0 }
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / hz
}

/// CPU-seconds used so far by every process named nginx (the server: its share of each request).
func nginxCPU() -> Double {
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    var total = 0.0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    where entry.first?.isNumber == true {
        guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
            stat[stat.index(after: open)..<close] == "nginx"
        else { continue }
        // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) {
            total += (user + system) / hz
        }
    }
    return total
}

/// Resets the process's peak resident size (Linux: clear_refs 5), so that each turn has its own.
func resetPeakRSS() {
    if let file = fopen("/proc/self/clear_refs", "w") {
        fputs("5", file)
        fclose(file)
    }
}

/// Peak resident size since the last reset, in MB (VmHWM).
func peakRSS() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return kb / 1024
}

struct Turn {
    var requests: Int
    var failures: Int
    var rate: Double
    var cpuPerRequest: Double  // µs
    var p50: Double  // µs
    var p99: Double  // µs
    var peakRSS: Double  // MB
    var machineBusy: Double  // % of one core, the whole machine
    var processCPU: Double  // % of one core, this process
    var nginxPerRequest: Double  // µs of nginx's CPU per request
    var others: Double  // % of one core, every other process
}

func turn(_ client: Client, workers: Int, seconds: Double) -> Turn {
    resetPeakRSS()
    let busy0 = machineBusy()
    let nginx0 = nginxCPU()
    let cpu0 = processCPU()
    let start = DispatchTime.now().uptimeNanoseconds
    let records = load(client, workers: workers, until: start + UInt64(seconds * 1e9))
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = processCPU() - cpu0
    let busy = machineBusy() - busy0
    let nginx = nginxCPU() - nginx0
    let latencies = records.flatMap(\.latencies).sorted()
    let count = latencies.count
    func percentile(_ p: Double) -> Double {
        count == 0 ? 0 : Double(latencies[min(count - 1, Int(Double(count) * p))]) / 1000
    }
    return Turn(
        requests: count, failures: records.reduce(0) { $0 + $1.failures }, rate: Double(count) / wall,
        cpuPerRequest: count == 0 ? 0 : cpu / Double(count) * 1e6, p50: percentile(0.5), p99: percentile(0.99),
        peakRSS: peakRSS(), machineBusy: 100 * busy / wall, processCPU: 100 * cpu / wall,
        nginxPerRequest: count == 0 ? 0 : nginx / Double(count) * 1e6, others: max(0, 100 * (busy - cpu - nginx) / wall)
    )
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double, _ decimals: Int = 0) -> String {
    String(format: "%.\(decimals)f", value)
}

@main
enum TransportLoad {
    static func main() {
        let options = Options(Array(CommandLine.arguments.dropFirst()))
        Shared.eventLoops = options.eventLoops
        Shared.body = options.body
        Shared.tracer = options.tracer
        Shared.cookieStorage = options.cookieStorage
        let clients = options.clients.compactMap(Client.init)
        if let count = options.count {
            for client in clients { send(client, times: 5) }
            for client in clients { send(client, times: count) }
            return
        }
        emit(
            "TransportLoad: \(Shared.base), \(options.rounds) rounds of \(options.seconds) s per client and mode, "
                + "event loops: \(options.eventLoops == 0 ? "shared singleton (\(System.coreCount))" : "\(options.eventLoops)"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        decodingCost()
        // Warm-up: connections opened, lazy statics made, code paged in.
        for client in clients { _ = turn(client, workers: options.modes.max() ?? 1, seconds: 0.5) }

        for workers in options.modes {
            var turns: [[Turn]] = Array(repeating: [], count: clients.count)
            for round in 1...options.rounds {
                // Rotate the order each round, so that no client always follows the same one.
                for offset in 0..<clients.count {
                    let index = (offset + round - 1) % clients.count
                    let t = turn(clients[index], workers: workers, seconds: options.seconds)
                    turns[index].append(t)
                    emit(
                        "  round \(round) \(workers == 1 ? "sequential" : "\(workers) in flight") \(clients[index].label): "
                            + "\(format(t.rate)) req/s, \(format(t.cpuPerRequest)) µs CPU/req, p50 \(format(t.p50)) µs, "
                            + "p99 \(format(t.p99)) µs, nginx \(format(t.nginxPerRequest)) µs/req, "
                            + "process \(format(t.processCPU))% / machine \(format(t.machineBusy))% / others \(format(t.others))%"
                            + (t.failures > 0 ? ", \(t.failures) FAILED" : ""))
                }
            }
            report(clients: clients, turns: turns, workers: workers)
        }
    }

    /// The CPU time of decoding the body alone, one thread, as the clients do after receiving it.
    static func decodingCost() {
        guard let data = try? Data(contentsOf: URL(string: Shared.url)!) else { return }
        let buffer = ByteBuffer(data: data)
        for _ in 0..<200 { _ = Shared.body.decodes(buffer) }
        let count = 5000
        let cpu0 = processCPU()
        for _ in 0..<count { _ = Shared.body.decodes(buffer) }
        emit(
            "decoding the \(data.count)-byte body (\(Shared.body.rawValue)): "
                + "\(format((processCPU() - cpu0) / Double(count) * 1e6)) µs CPU"
        )
    }

    static func report(clients: [Client], turns: [[Turn]], workers: Int) {
        let mode = workers == 1 ? "sequential" : "\(workers) in flight"
        emit(
            "\n| client (\(mode)) | req/s | CPU/request | p50 | p99 | peak RSS | nginx CPU/req | process CPU | machine busy | others |"
        )
        emit("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |")
        for (client, t) in zip(clients, turns) {
            emit(
                "| \(client.label) | \(format(median(t.map(\.rate)))) | \(format(median(t.map(\.cpuPerRequest)))) µs "
                    + "| \(format(median(t.map(\.p50)))) µs | \(format(median(t.map(\.p99)))) µs "
                    + "| \(format(median(t.map(\.peakRSS)), 1)) MB | \(format(median(t.map(\.nginxPerRequest)))) µs "
                    + "| \(format(median(t.map(\.processCPU))))% | \(format(median(t.map(\.machineBusy))))% "
                    + "| \(format(median(t.map(\.others))))% |")
        }
        // Ratios within each round (the interleaving keeps them), then their median.
        func ratio(_ a: Client, _ b: Client) -> String? {
            guard let i = clients.firstIndex(of: a), let j = clients.firstIndex(of: b) else { return nil }
            let ratios = zip(turns[i], turns[j]).map { $0.rate / $1.rate }
            return "\(a.label) ÷ \(b.label): \(format(median(ratios), 2))× (rounds: "
                + ratios.map { format($0, 2) }.joined(separator: ", ") + ")"
        }
        let pairs: [(Client, Client)] = [
            (.ahc, .urlSession), (.ahc, .raw), (.raw, .urlSession), (.rawFuture, .urlSession),
            (.ahcCallback, .urlSession),
            (.ahcCallback, .rawFuture), (.rawFuture, .raw), (.performURLSession, .rawURLSession),
            (.urlSession, .rawURLSession), (.urlSessionCallback, .rawURLSession),
        ]
        for line in pairs.compactMap(ratio) { emit("  \(line)") }
        emit("")
    }
}

/// A line on standard output, written at once (also into a file or a pipe, where `print`
/// would hold it until the buffer fills).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
