// Peak resident memory of a 200 MB multipart upload, streamed from disk by `perform`,
// against the server at APIKIT_BENCH_URL (scripts/benchmark.sh starts nginx with a
// `POST /upload` location that reads the whole body and answers 200). Without the
// variable these benchmarks are not registered. Memory, not time, is the point: one
// iteration is one upload, and each benchmark runs in a process of its own, so
// `peakMemoryResident` is that process's peak.
//
//   "Upload 200 MB: idle process"            the same process doing nothing: the baseline
//   "Upload 200 MB: APIKit multipart (spool)" @FilePart(.file(url)) through URLSessionTransport:
//                                            on Linux written to a spool file, then uploaded
//                                            from it with its Content-Length
//   "Upload 200 MB: APIKit @FileBody"        the file as the whole body, uploadTask(fromFile:)
//   "Upload 200 MB: APIKit multipart, AsyncHTTPClientTransport" and
//   "Upload 200 MB: APIKit @FileBody, AsyncHTTPClientTransport"  the same two requests through
//                                            the AsyncHTTPClient transport: the body streamed
//                                            from disk with its Content-Length, no spool
//   "Upload 200 MB: raw uploadTask(fromFile:)" the same file, plain URLSession: the yardstick
//   "Upload 200 MB: whole file in memory"    a raw data task with the file as httpBody, to
//                                            show what not streaming costs (and that the
//                                            metric sees it)
//
// The file is sparse (200 MB of zeros that take no disk space), made in setup and removed
// in teardown.

import APIKit
import APIKitAsyncHTTPClient
import Benchmark
import Dispatch

private let uploadSize: Int64 = 200 * 1024 * 1024

/// `POST <base>/upload` with a text part and the file.
struct MultipartUploadRequest: Request, RequestConfiguration {
    @Part("note") var note = "benchmark"
    @FilePart("file") var file: MultipartFile? = nil

    var base: URL
    var path: String { "upload" }
    var method: HTTPMethod { .post }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
}

/// `POST <base>/upload` with the file as the whole body.
struct FileBodyUploadRequest: Request, RequestConfiguration {
    @FileBody("application/octet-stream") var file: URL? = nil

    var base: URL
    var path: String { "upload" }
    var method: HTTPMethod { .post }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
}

/// The transports of the APIKit upload benchmarks, as an app would make them once.
private let uploadSession = Session(transport: URLSessionTransport())
private let asyncHTTPClientUploadSession = Session(
    transport: AsyncHTTPClientTransport(client: benchmarkHTTPClient))

/// Where the upload file lives while a benchmark runs.
private let uploadFile = FileManager.default.temporaryDirectory
    .appendingPathComponent("apikit-bench-upload-\(ProcessInfo.processInfo.processIdentifier).bin")

private func makeUploadFile() throws {
    guard FileManager.default.createFile(atPath: uploadFile.path, contents: nil) else {
        throw EndToEndSetupFailed(description: "could not create \(uploadFile.path)")
    }
    let handle = try FileHandle(forWritingTo: uploadFile)
    try handle.truncate(atOffset: UInt64(uploadSize))
    try handle.close()
}

private func removeUploadFile() {
    try? FileManager.default.removeItem(at: uploadFile)
}

/// Runs one upload and waits for its completion; an error is the benchmark's error.
private func upload(_ client: UploadClient, base: String) async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
        let url = URL(string: base)!
        switch client {
        case .apikitMultipart, .apikitFileBody, .asyncHTTPClientMultipart, .asyncHTTPClientFileBody:
            let answered: @Sendable (Result<Data, RequestError>) -> Void = { result in
                switch result {
                case .success(let body):
                    continuation.resume(
                        returning: String(decoding: body, as: UTF8.self) == "ok\n" ? nil : "unexpected body")
                case .failure(let error): continuation.resume(returning: "\(error)")
                }
            }
            let session =
                client == .asyncHTTPClientMultipart || client == .asyncHTTPClientFileBody
                ? asyncHTTPClientUploadSession : uploadSession
            if client == .apikitMultipart || client == .asyncHTTPClientMultipart {
                MultipartUploadRequest(file: .file(uploadFile), base: url).perform(using: session, completion: answered)
            } else {
                FileBodyUploadRequest(file: uploadFile, base: url).perform(using: session, completion: answered)
            }
        case .rawFromFile:
            var request = URLRequest(url: url.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            endToEndSession.uploadTask(with: request, fromFile: uploadFile) { data, response, error in
                let status = (response as? HTTPURLResponse)?.statusCode
                continuation.resume(
                    returning: error.map { "\($0)" } ?? (status == 200 ? nil : "status \(String(describing: status))"))
            }.resume()
        case .inMemory:
            var request = URLRequest(url: url.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            do {
                request.httpBody = try Data(contentsOf: uploadFile)
            } catch {
                continuation.resume(returning: "\(error)")
                return
            }
            endToEndSession.dataTask(with: request) { data, response, error in
                let status = (response as? HTTPURLResponse)?.statusCode
                continuation.resume(
                    returning: error.map { "\($0)" } ?? (status == 200 ? nil : "status \(String(describing: status))"))
            }.resume()
        case .idle:
            continuation.resume(returning: nil)
        }
    }
}

private enum UploadClient {
    case idle
    case apikitMultipart
    case apikitFileBody
    case asyncHTTPClientMultipart
    case asyncHTTPClientFileBody
    case rawFromFile
    case inMemory
}

private func uploadBenchmark(_ name: String, client: UploadClient, base: String) {
    let configuration = Benchmark.Configuration(
        metrics: [.peakMemoryResident, .wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(30),
        maxIterations: 5,
        setup: { try makeUploadFile() },
        teardown: { removeUploadFile() }
    )
    Benchmark(name, configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            if let error = await upload(client, base: base) {
                benchmark.error("\(name): upload failed: \(error)")
                return
            }
        }
    }
}

func registerUploadBenchmarks() {
    guard let base = endToEndBase else { return }
    uploadBenchmark("Upload 200 MB: idle process", client: .idle, base: base)
    uploadBenchmark("Upload 200 MB: APIKit multipart (spool)", client: .apikitMultipart, base: base)
    uploadBenchmark("Upload 200 MB: APIKit @FileBody", client: .apikitFileBody, base: base)
    uploadBenchmark(
        "Upload 200 MB: APIKit multipart, AsyncHTTPClientTransport", client: .asyncHTTPClientMultipart, base: base)
    uploadBenchmark(
        "Upload 200 MB: APIKit @FileBody, AsyncHTTPClientTransport", client: .asyncHTTPClientFileBody, base: base)
    uploadBenchmark("Upload 200 MB: raw uploadTask(fromFile:)", client: .rawFromFile, base: base)
    uploadBenchmark("Upload 200 MB: whole file in memory", client: .inMemory, base: base)
}
