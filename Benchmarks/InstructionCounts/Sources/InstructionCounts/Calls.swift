// Calls for callgrind: a small JSON response through a `Session` over `StubTransport`, so that
// the count is the pipeline's and its middlewares' own, with no network and no URLSession.
// Each call is `perform(using:)`, waited for with a semaphore, as the end-to-end counts do
// (callgrind does not run an async `main`).
//
//   call-session   a Session with no middleware
//   call-passthrough  the same with one Interceptor that only calls `next`: what any link costs
//   call-traffic   the same with a TrafficControl whose limits are never reached
//   call-cached    the same with an HTTPCache (a MemoryCacheStore) holding a fresh response:
//                  every counted call is a hit, answered without the transport
//   call-cached-disk  the same with the cache over a DiskCacheStore (in a directory of the
//                  temporary directory, removed at exit)
//   read-disk-record  Data(contentsOf:) of the file that store keeps the record in: the bytes
//                  a disk hit reads, read with Foundation alone; read-disk-record-path reads
//                  them with FileManager's contents(atPath:), the path made once
//   loop-read-disk-store  the DiskCacheStore's read (`record(forKey:)`) of a record of the same
//                  bytes, in one task: the store's own cost of a disk hit's read
//   call-uncacheable  call-session with an HTTPCache whose every response is `no-store`;
//   call-no-store  the same responses without the cache: the difference is what a cache costs
//                  calls it can never answer
//
// loop-session, loop-passthrough, loop-traffic, loop-cached, loop-uncacheable and loop-no-store
// make the same calls with `response(using:)`, all N one after the other in one task, as async
// code makes them: no thread hand-off per call (each `call-*` call wakes the calling thread
// with a semaphore), so the CPU time per call (`perf stat -e task-clock`, two values of N) is
// the call's own.
//
// loop-inline-session, loop-inline-passthrough and loop-inline-traffic make those calls over a
// transport that answers in the awaiting task (no thread hop), so that what a link adds to a
// call's CPU time is not lost in the hop's.
//
// The difference of call-traffic and call-session is what a TrafficControl costs a call that
// never waits: call-passthrough − call-session of it is the chain's cost of a link, the rest the
// TrafficControl's own; call-cached is the whole cost of a call answered from memory.

import APIKit
import Dispatch

/// `GET /v1/users?id=42` answered `{"id":42}`.
struct CallRequest: JSONDecodableRequest, RequestConfiguration {
    @Query("id") var id: Int? = 42

    struct Response: Decodable, Sendable { var id: Int }

    var base: URL { URL(string: "https://api.example.com/v1")! }
    var path: String { "users" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
}

let stub = StubTransport { _ in .success(headers: ["Content-Type": "application/json"], body: Data(#"{"id":42}"#.utf8))
}
let plainSession = Session(transport: stub)
/// A link that passes every request on unchanged.
struct PassThrough: Interceptor {
    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        try await next(urlRequest)
    }
}
let passThroughSession = Session(transport: stub, interceptors: [PassThrough()])
/// The same answer, fresh for an hour: stored by the first call, it answers every later one.
let freshStub = StubTransport { _ in
    .success(
        headers: ["Content-Type": "application/json", "Cache-Control": "max-age=3600"], body: Data(#"{"id":42}"#.utf8))
}
let cachedSession = Session(transport: freshStub, interceptors: [HTTPCache()])
/// A directory of the temporary directory for the disk store, removed when the program ends.
let diskDirectory: URL = {
    atexit { try? FileManager.default.removeItem(at: diskDirectory) }
    return FileManager.default.temporaryDirectory.appendingPathComponent(
        "apikit-instruction-counts-\(UUID().uuidString)")
}()
let diskSession = Session(
    transport: freshStub, interceptors: [HTTPCache(store: DiskCacheStore(directory: diskDirectory))])
let noStoreStub = StubTransport { _ in
    .success(
        headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: Data(#"{"id":42}"#.utf8))
}
let uncacheableSession = Session(transport: noStoreStub, interceptors: [HTTPCache()])
let noStoreSession = Session(transport: noStoreStub)

let trafficSession = Session(
    transport: stub, interceptors: [TrafficControl(maxCallsInFlight: 64, maxCallsInFlightPerHost: 6)])

/// The file the disk store keeps the response in, once a first call has stored it.
let diskRecordFile: URL = {
    call(through: diskSession)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: diskDirectory.path)) ?? []
    guard let name = files.first(where: { $0.hasSuffix(".apikitcache") }) else { fatalError("nothing stored") }
    return diskDirectory.appendingPathComponent(name)
}()

/// Reads the disk store's record file, the bytes a disk hit reads.
func readDiskRecord() {
    guard let data = try? Data(contentsOf: diskRecordFile), data.count > 20 else { fatalError("no record") }
}

/// The record file's path, made once.
let diskRecordPath = diskRecordFile.path

/// Reads the same file by its path with `FileManager`.
func readDiskRecordAtPath() {
    guard let data = FileManager.default.contents(atPath: diskRecordPath), data.count > 20 else {
        fatalError("no record")
    }
}

/// Performs `request` through `session` and waits for its completion.
func call(through session: Session) {
    let done = DispatchSemaphore(value: 0)
    opaque(CallRequest()).perform(using: session) { result in
        guard case .success(let response) = result, response.id == 42 else { fatalError("call failed: \(result)") }
        done.signal()
    }
    done.wait()
}

/// A disk store of its own holding the bytes of `diskRecordFile` under one key, hexadecimal
/// as the keys `HTTPCache` makes.
let recordKey = String(repeating: "0123456789abcdef", count: 4)
let recordStore: DiskCacheStore = {
    let store = DiskCacheStore(directory: diskDirectory.appendingPathComponent("store-only"))
    guard let bytes = try? Data(contentsOf: diskRecordFile) else { fatalError("no record") }
    let done = DispatchSemaphore(value: 0)
    Task {
        await store.setRecord(bytes, forKey: recordKey)
        done.signal()
    }
    done.wait()
    return store
}()

/// Reads `recordStore`'s record `count` times, one after the other in one task: what the disk
/// store's own read costs (the file read, its check, the store's index).
func readStore(count: Int) {
    let done = DispatchSemaphore(value: 0)
    Task {
        for _ in 0..<count {
            guard let record = await recordStore.record(forKey: recordKey), record.count > 20 else {
                fatalError("no record")
            }
        }
        done.signal()
    }
    done.wait()
}

/// Answers every request with `{"id":42}` at once, in the awaiting task (its async `send`), so
/// that a call makes no thread hop: for the CPU time of what the chain's links add to a call.
struct InlineTransport: Transport {
    struct NoTask: TransportTask {
        func cancel() {}
    }

    let response = TransportResponse(
        data: Data(#"{"id":42}"#.utf8),
        urlResponse: HTTPURLResponse(
            url: URL(string: "https://api.example.com/v1/users?id=42")!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"])!)

    func send(
        _ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let response = response
        DispatchQueue.global().async { completion(.success(response)) }
        return NoTask()
    }

    func send(_ request: URLRequest) async throws -> TransportResponse { response }
}

let inlineSession = Session(transport: InlineTransport())
let inlinePassThroughSession = Session(transport: InlineTransport(), interceptors: [PassThrough()])
let inlineTrafficSession = Session(
    transport: InlineTransport(), interceptors: [TrafficControl(maxCallsInFlight: 64, maxCallsInFlightPerHost: 6)])

/// Performs `count` calls through `session` one after the other in one task, with
/// `response(using:)`, and waits once for the last.
func loop(through session: Session, count: Int) {
    let done = DispatchSemaphore(value: 0)
    Task {
        for _ in 0..<count {
            guard let response = try? await opaque(CallRequest()).response(using: session), response.id == 42 else {
                fatalError("call failed")
            }
        }
        done.signal()
    }
    done.wait()
}

let loops: [String: @Sendable (Int) -> Void] = [
    "loop-session": { loop(through: plainSession, count: $0) },
    "loop-passthrough": { loop(through: passThroughSession, count: $0) },
    "loop-traffic": { loop(through: trafficSession, count: $0) },
    "loop-cached": { loop(through: cachedSession, count: $0) },
    "loop-cached-disk": { loop(through: diskSession, count: $0) },
    "loop-uncacheable": { loop(through: uncacheableSession, count: $0) },
    "loop-no-store": { loop(through: noStoreSession, count: $0) },
    "loop-read-disk-store": { readStore(count: $0) },
    "loop-inline-session": { loop(through: inlineSession, count: $0) },
    "loop-inline-passthrough": { loop(through: inlinePassThroughSession, count: $0) },
    "loop-inline-traffic": { loop(through: inlineTrafficSession, count: $0) },
]

let calls: [String: @Sendable () -> Void] = [
    "call-session": { call(through: plainSession) },
    "call-passthrough": { call(through: passThroughSession) },
    "call-traffic": { call(through: trafficSession) },
    "call-cached": { call(through: cachedSession) },
    "call-cached-disk": { call(through: diskSession) },
    "read-disk-record": { readDiskRecord() },
    "read-disk-record-path": { readDiskRecordAtPath() },
    "call-uncacheable": { call(through: uncacheableSession) },
    "call-no-store": { call(through: noStoreSession) },
]
