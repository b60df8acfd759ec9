import APIKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The servers `scripts/test.sh` starts and exports, read as the root integration tests read
/// them; without a URL a suite is skipped, unless `APIKIT_REQUIRE_HTTPBIN=1`, in which case
/// `ServerAvailabilityTests` fails.
enum Servers {
    static func url(_ name: String) -> URL? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty,
            let url = URL(string: value), url.scheme != nil, url.host != nil
        else { return nil }
        return url
    }

    static let httpbin = url("APIKIT_HTTPBIN_URL")
    static let fault = url("APIKIT_FAULT_URL")
    static let length = url("APIKIT_LENGTH_URL")
    static let s3 = url("APIKIT_S3_URL")
    static let presignCommand = ProcessInfo.processInfo.environment["APIKIT_PRESIGN_COMMAND"].flatMap {
        $0.isEmpty ? nil : $0
    }
    static let isRequired = ProcessInfo.processInfo.environment["APIKIT_REQUIRE_HTTPBIN"] == "1"

    static var httpbinURL: URL { httpbin ?? URL(string: "http://127.0.0.1:9")! }
    static var faultURL: URL { fault ?? URL(string: "http://127.0.0.1:9")! }
    static var lengthURL: URL { length ?? URL(string: "http://127.0.0.1:9")! }

    static let skipReason: Comment =
        "APIKIT_HTTPBIN_URL and the other server URLs are not set: run `bash scripts/test.sh`"
    static var allSet: Bool { httpbin != nil && fault != nil && length != nil }
}

@Suite("server availability")
struct ServerAvailabilityTests {
    @Test("every server URL is set when APIKIT_REQUIRE_HTTPBIN=1")
    func serversAreConfiguredWhenRequired() {
        guard Servers.isRequired else { return }
        let variables: [(String, Bool)] = [
            ("APIKIT_HTTPBIN_URL", Servers.httpbin != nil), ("APIKIT_FAULT_URL", Servers.fault != nil),
            ("APIKIT_LENGTH_URL", Servers.length != nil), ("APIKIT_S3_URL", Servers.s3 != nil),
            ("APIKIT_PRESIGN_COMMAND", Servers.presignCommand != nil),
        ]
        for (variable, isSet) in variables {
            #expect(isSet, "APIKIT_REQUIRE_HTTPBIN=1 but \(variable) is missing: its tests would be skipped")
        }
    }
}

/// Records a completion's calls; ``first(timeout:)`` waits for the first.
final class Probe<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is only touched with `lock` held.
    private let lock = NSLock()
    private var values: [Value] = []
    private var waiters: [CheckedContinuation<Value?, Never>] = []

    func record(_ value: Value) {
        lock.lock()
        values.append(value)
        let waiting = waiters
        waiters.removeAll()
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: value) }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return values.count
    }

    /// Wakes every waiting task with `nil`, so that a timed-out wait can end.
    private func wakeWaiters() {
        lock.lock()
        let waiting = waiters
        waiters.removeAll()
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: nil) }
    }

    /// The first value; `nil` when none came within `timeout` seconds.
    func first(timeout: TimeInterval = 30) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    self.lock.lock()
                    if let value = self.values.first {
                        self.lock.unlock()
                        continuation.resume(returning: value)
                    } else {
                        self.waiters.append(continuation)
                        self.lock.unlock()
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil { wakeWaiters() }
            group.cancelAll()
            return first
        }
    }
}

struct CompletionTimedOut: Error {}

/// Sends `urlRequest` through `transport`, cancelling it after `cancelAfter` seconds when
/// given, and returns the result; fails the test when the completion comes more than once.
func send(
    _ urlRequest: URLRequest,
    through transport: any Transport,
    cancelAfter: Double? = nil,
    timeout: TimeInterval = 60
) async throws -> Result<TransportResponse, any Error> {
    let probe = Probe<Result<TransportResponse, any Error>>()
    let task = transport.send(urlRequest) { probe.record($0) }
    if let cancelAfter {
        try await Task.sleep(nanoseconds: UInt64(cancelAfter * 1_000_000_000))
        task.cancel()
    }
    guard let result = await probe.first(timeout: timeout) else { throw CompletionTimedOut() }
    try await Task.sleep(nanoseconds: 50_000_000)
    #expect(probe.count == 1, "the transport completed \(probe.count) times")
    return result
}

/// The `URLError` code of a failed result; `nil` when it succeeded or failed otherwise.
func urlErrorCode(_ result: Result<TransportResponse, any Error>) -> URLError.Code? {
    guard case .failure(let error) = result else { return nil }
    return (error as? URLError)?.code
}

/// A directory of its own for one test's files.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apikit-ahc-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file of `size` bytes of a repeating pattern.
    func file(_ name: String, size: Int) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }).write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The spool files URLSessionTransport would write (`APIKit-upload-*`) in the temporary directory.
func spoolFiles() -> Set<String> {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    return Set(names.filter { $0.hasPrefix("APIKit-upload-") })
}
