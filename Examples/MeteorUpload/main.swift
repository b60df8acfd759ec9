// Example: a file upload with progress and cancellation, written the way the MeteorAPI seed (004) works.
//
// MeteorAPI declares each endpoint as a request type (`UploadFileRequest` with a multipart file part
// and its own timeout) and sends it with a client whose `send` returns a `NetworkRequest` for progress
// and cancellation, or with `try await client.perform(...)`. The declarations live in the `MeteorAPI`
// library target (Examples/MeteorAPI): `MeteorClient` wraps a `Session` with a `URLSessionTransport`,
// which reports progress, and returns APIKit's `RequestHandle`. MeteorAPI's mocked responses are
// `StubTransport` answers in Tests/ExamplesTests/MeteorAPITests.swift, against the same declarations.
//
// A local httpbin plays the server (`bash scripts/run-examples.sh MeteorUploadExample`): /anything echoes
// the uploaded file and fields. The example uploads a 2 MB file and checks the echo and the progress
// steps, then cancels a larger upload from its first progress step; it exits 1 if anything differs.
import APIKit
import MeteorAPI

/// The httpbin server, from `APIKIT_HTTPBIN_URL`.
let server: URL = {
    guard let url = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"].flatMap(URL.init(string:)) else {
        print("Set APIKIT_HTTPBIN_URL to an httpbin server, or run: bash scripts/run-examples.sh MeteorUploadExample")
        exit(2)
    }
    return url
}()

/// Prints what was shown, or why it was not and exits 1.
func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("FAIL: \(what)")
        exit(1)
    }
    print("ok: \(what)")
}

/// Collects progress steps, reported on the transport's queue.
final class ProgressLog: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var recorded: [TransferProgress] = []

    func record(_ step: TransferProgress) {
        lock.withLock { recorded.append(step) }
    }

    var steps: [TransferProgress] { lock.withLock { recorded } }
}

/// Cancels a request from its first progress step, whether that comes before or after `send` returns.
final class CancelOnFirstStep: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var handle: RequestHandle?
    private var stepped = false

    func step() {
        let handle = lock.withLock { () -> RequestHandle? in
            stepped = true
            return self.handle
        }
        handle?.cancel()
    }

    func started(_ handle: RequestHandle) {
        let cancelNow = lock.withLock {
            self.handle = handle
            return stepped
        }
        if cancelNow { handle.cancel() }
    }
}

/// `megabytes` MB of numbered text lines, cheap for httpbin to echo.
func lines(megabytes: Int) -> Data {
    var text = ""
    text.reserveCapacity(megabytes << 20)
    for line in 0..<(megabytes << 14) {
        text += String(repeating: "0", count: 8 - String(line).count) + String(line)
        text += String(repeating: "m", count: 55) + "\n"
    }
    return Data(text.utf8)
}

let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("meteor-upload-\(UUID().uuidString)", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

// MeteorAPI's client: here httpbin's echo is the server.
let client = MeteorClient(
    server: server.appendingPathComponent("anything"),
    session: Session(transport: URLSessionTransport(configuration: .ephemeral))
)

// An upload with progress, awaited.
let contents = lines(megabytes: 2)
let file = directory.appendingPathComponent("holiday.txt")
try contents.write(to: file)
let log = ProgressLog()
let echo = try await client.perform(UploadFileRequest(file: file, title: "Holiday"), progress: log.record)
check(echo.files["file"] == String(decoding: contents, as: UTF8.self), "the 2 MB file arrived intact")
check(echo.form == ["title": "Holiday"], "the title arrived as a text part")

let sent = log.steps.map(\.bytesSent)
check(sent.count > 1, "upload progress was reported in \(sent.count) steps")
check(sent == sent.sorted(), "bytes sent never went backwards")
let last = log.steps.last
check(
    last?.expectedBytesToSend.map { $0 > Int64(contents.count) && last?.bytesSent == $0 } == true,
    "the last step reports the whole body sent: \(last?.bytesSent ?? 0) of \(last?.expectedBytesToSend ?? 0) bytes"
)
let quarters = log.steps.compactMap { step in
    step.expectedBytesToSend.flatMap { total in total > 0 ? Int(min(step.bytesSent, total) * 4 / total) * 25 : nil }
}
for percent in Set(quarters).sorted() {
    print("  uploaded \(percent) %")
}

// `send` returns a handle: cancelling it from the first progress step stops the upload.
let large = directory.appendingPathComponent("large.txt")
try lines(megabytes: 16).write(to: large)
let canceller = CancelOnFirstStep()
let outcome = await withCheckedContinuation { continuation in
    canceller.started(
        client.send(UploadFileRequest(file: large), progress: { _ in canceller.step() }) { result in
            continuation.resume(returning: result)
        }
    )
}
if case .failure(.cancelled) = outcome {
    print("ok: the upload cancelled from its first progress step ended with .cancelled")
} else {
    check(false, "the cancelled upload should end with .cancelled, got \(outcome)")
}

print("MeteorUpload example: all checks passed")
