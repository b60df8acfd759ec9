// Peak resident memory and time of a 1 GB download to disk against the server at
// APIKIT_BENCH_URL (scripts/benchmark.sh starts nginx with a `GET /download-1g` location
// serving a sparse 1 GB file with its Content-Length). Without the variable these benchmarks
// are not registered. One iteration is one download; each benchmark runs in a process of its
// own, so `peakMemoryResident` is that process's peak.
//
//   "Download 1 GB: idle process"             the same process doing nothing: the baseline
//   "Download 1 GB: APIKit download(for:to:)" Request.download through URLSessionTransport,
//                                             no progress: a download task with a completion
//                                             handler writes the body to corelibs' temporary
//                                             file, moved into place at the end
//   "Download 1 GB: APIKit download(for:to:) with progress"
//                                             the same with a progress closure that counts the
//                                             reports: a delegate's download task
//   "Download 1 GB: raw downloadTask"         plain URLSession downloadTask, the file moved
//                                             into place in its completion: the yardstick
//   "Download 1 GB: APIKit download(for:to:) over AsyncHTTPClient"
//                                             Request.download through AsyncHTTPClientTransport
//                                             (its stream, each chunk written before the next
//                                             is read), on the transport benchmarks' client
//   "Download 1 GB: raw AsyncHTTPClient FileDownloadDelegate"
//                                             the same client's own file delegate: its yardstick
//
// The downloaded file is removed after each iteration.

import APIKit
import APIKitAsyncHTTPClient
import AsyncHTTPClient
import Benchmark
import Dispatch
import NIOCore

/// `GET <base>/download-1g`.
struct LargeDownloadRequest: Request, RequestConfiguration {
    var base: URL
    var path: String { "download-1g" }
    var method: HTTPMethod { .get }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    var options: RequestOptions { RequestOptions(timeout: 60) }
}

private let downloadSize: Int64 = 1 << 30

/// The transport of the APIKit download benchmark, as an app would make it once.
private let downloadSession = Session(transport: URLSessionTransport())

/// The same over the AsyncHTTPClient transport, on the client of the transport benchmarks.
private let asyncHTTPClientDownloadSession = Session(transport: AsyncHTTPClientTransport(client: benchmarkHTTPClient))

/// Where each download is put.
private let downloadDestination = FileManager.default.temporaryDirectory
    .appendingPathComponent("apikit-bench-download-\(ProcessInfo.processInfo.processIdentifier).bin")

/// Counts progress reports, from whichever thread they come: `reports` is read and written
/// only with `lock` held.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports = 0

    func count() { lock.withLock { reports += 1 } }

    var total: Int { lock.withLock { reports } }
}

private enum DownloadClient {
    case idle
    case apikit
    case apikitWithProgress
    case rawDownloadTask
    case apikitAsyncHTTPClient
    case rawAsyncHTTPClient
}

/// Runs one download and checks its size; an error is the benchmark's error.
private func download(_ client: DownloadClient, base: URL) async -> String? {
    defer { try? FileManager.default.removeItem(at: downloadDestination) }
    switch client {
    case .idle:
        return nil
    case .apikit, .apikitWithProgress, .apikitAsyncHTTPClient:
        let reports = Reports()
        var progress: (@Sendable (TransferProgress) -> Void)?
        if client == .apikitWithProgress {
            progress = { _ in reports.count() }
        }
        do {
            let download = try await LargeDownloadRequest(base: base).download(
                to: downloadDestination,
                using: client == .apikitAsyncHTTPClient ? asyncHTTPClientDownloadSession : downloadSession,
                progress: progress)
            if client == .apikitWithProgress, reports.total == 0 { return "no progress reported" }
            return download.byteCount == downloadSize ? nil : "\(download.byteCount) bytes"
        } catch {
            return "\(error)"
        }
    case .rawAsyncHTTPClient:
        do {
            let url = base.appendingPathComponent("download-1g")
            let delegate = try FileDownloadDelegate(path: downloadDestination.path)
            let received = try await benchmarkHTTPClient.execute(
                request: try HTTPClient.Request(url: url.absoluteString), delegate: delegate,
                deadline: NIODeadline.now() + .seconds(60)
            ).futureResult.get()
            return received.receivedBytes == downloadSize ? nil : "\(received.receivedBytes) bytes"
        } catch {
            return "\(error)"
        }
    case .rawDownloadTask:
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let url = base.appendingPathComponent("download-1g")
            endToEndSession.downloadTask(with: url) { location, response, error in
                if let error { return continuation.resume(returning: "\(error)") }
                guard let location else { return continuation.resume(returning: "no file") }
                do {
                    try? FileManager.default.removeItem(at: downloadDestination)
                    try FileManager.default.moveItem(at: location, to: downloadDestination)
                    let size = try FileManager.default.attributesOfItem(atPath: downloadDestination.path)[.size]
                    continuation.resume(returning: (size as? NSNumber)?.int64Value == downloadSize ? nil : "size")
                } catch {
                    continuation.resume(returning: "\(error)")
                }
            }.resume()
        }
    }
}

private func downloadBenchmark(_ name: String, client: DownloadClient, base: URL) {
    let configuration = Benchmark.Configuration(
        metrics: [.peakMemoryResident, .wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(60),
        maxIterations: 3
    )
    Benchmark(name, configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            if let error = await download(client, base: base) {
                benchmark.error("\(name): download failed: \(error)")
                return
            }
        }
    }
}

func registerDownloadBenchmarks() {
    guard let base = endToEndBase.flatMap(URL.init(string:)) else { return }
    downloadBenchmark("Download 1 GB: idle process", client: .idle, base: base)
    downloadBenchmark("Download 1 GB: APIKit download(for:to:)", client: .apikit, base: base)
    downloadBenchmark("Download 1 GB: APIKit download(for:to:) with progress", client: .apikitWithProgress, base: base)
    downloadBenchmark("Download 1 GB: raw downloadTask", client: .rawDownloadTask, base: base)
    downloadBenchmark(
        "Download 1 GB: APIKit download(for:to:) over AsyncHTTPClient", client: .apikitAsyncHTTPClient, base: base)
    downloadBenchmark(
        "Download 1 GB: raw AsyncHTTPClient FileDownloadDelegate", client: .rawAsyncHTTPClient, base: base)
}
