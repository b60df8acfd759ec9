// APIKit's benchmarks. Each APIKit measurement sits next to its baseline in
// the same run, under names that sort together ("Encode 10 fields: APIKit",
// "Encode 10 fields: hand-written minimal", ...), so the ratio between them is
// meaningful even on a noisy machine.
//
//   bash scripts/benchmark.sh                          # all, with a local nginx for e2e
//   bash scripts/benchmark.sh --filter '^Encode'       # a subset (regex on the name)
//   swift package --package-path Benchmarks benchmark  # without nginx: e2e skipped
//
// Before anything is registered, `Verification.run()` checks that every pair
// compares the same work (same URL, method, headers and body; same decoded
// value) and stops the run if not.

import Benchmark

let benchmarks: @Sendable () -> Void = {
    Verification.run()
    registerEncodeBenchmarks()
    registerParseBenchmarks()
    registerStreamBenchmarks()
    registerEndToEndBenchmarks()
    registerTransportBenchmarks()
    registerUploadBenchmarks()
    registerDownloadBenchmarks()
}
