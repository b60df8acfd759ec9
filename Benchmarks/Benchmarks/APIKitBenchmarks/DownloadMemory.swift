// Peak resident memory and time of a 1 GB download to disk against the server at
// APIKIT_BENCH_URL (scripts/benchmark.sh starts nginx with a `GET /download-1g` location
// serving a sparse 1 GB file with its Content-Length). Without the variable these benchmarks
// are not registered. One iteration is one download; each benchmark runs in a process of its
// own, so `peakMemoryResident` is that process's peak.
//
//   "Download 1 GB: idle process"             the same process doing nothing: the baseline
//   "Download 1 GB: APIKit download(for:to:)" Session.download through URLSessionTransport:
//                                             a download task writes the body to a temporary
//                                             file next to the destination, moved into place
//                                             at the end
//   "Download 1 GB: raw downloadTask"         plain URLSession downloadTask, the file moved
//                                             into place in its completion: the yardstick
//
// The downloaded file is removed after each iteration.

import APIKit
import Benchmark
import Dispatch

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

/// Where each download is put.
private let downloadDestination = FileManager.default.temporaryDirectory
    .appendingPathComponent("apikit-bench-download-\(ProcessInfo.processInfo.processIdentifier).bin")

private enum DownloadClient {
    case idle
    case apikit
    case rawDownloadTask
}

/// Runs one download and checks its size; an error is the benchmark's error.
private func download(_ client: DownloadClient, base: URL) async -> String? {
    defer { try? FileManager.default.removeItem(at: downloadDestination) }
    switch client {
    case .idle:
        return nil
    case .apikit:
        do {
            let download = try await LargeDownloadRequest(base: base).download(
                to: downloadDestination, using: downloadSession)
            return download.byteCount == downloadSize ? nil : "\(download.byteCount) bytes"
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
    downloadBenchmark("Download 1 GB: raw downloadTask", client: .rawDownloadTask, base: base)
}
