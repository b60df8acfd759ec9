// Encode: building the `URLRequest` (no I/O). One iteration is one request
// built, so `Malloc (total)` is the number of allocations per encode.

import APIKit
import Benchmark

private func encodeConfiguration() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.throughput: .count, .mallocCountTotal: .count],
        warmupIterations: 1_000,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 200_000
    )
}

/// Registers a benchmark that builds `input` into a `URLRequest` with `build`
/// once per iteration. `identity` hides the input from the optimizer and
/// `blackHole` keeps the result alive.
private func encodeBenchmark<Input>(
    _ name: String,
    _ input: Input,
    _ build: @escaping (Input) throws -> URLRequest
) {
    Benchmark(name, configuration: encodeConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try build(identity(input)))
        }
    }
}

func registerEncodeBenchmarks() {
    encodeBenchmark("Encode 1 field: APIKit", encode1) { try $0.makeURLRequest() }
    encodeBenchmark("Encode 1 field: hand-written minimal", encode1, HandWritten1.minimal)

    encodeBenchmark("Encode 10 fields: APIKit", encode10) { try $0.makeURLRequest() }
    encodeBenchmark("Encode 10 fields: hand-written minimal", encode10, HandWritten10.minimal)
    encodeBenchmark("Encode 10 fields: hand-written typical", encode10, HandWritten10.typical)

    encodeBenchmark("Encode 30 fields (20 nil): APIKit", Encode30Request.twentyNil) { try $0.makeURLRequest() }
    encodeBenchmark(
        "Encode 30 fields (20 nil): hand-written minimal", Encode30Request.twentyNil, HandWritten30.minimalTwentyNil)

    encodeBenchmark("Encode 30 fields: APIKit", Encode30Request.full) { try $0.makeURLRequest() }
    encodeBenchmark("Encode 30 fields: hand-written minimal", Encode30Request.full, HandWritten30.minimal)

    encodeBenchmark("Encode form, path and a user's wrapper: APIKit", encodeMixed) { try $0.makeURLRequest() }
    encodeBenchmark(
        "Encode form, path and a user's wrapper: hand-written minimal", encodeMixed, HandWrittenMixed.minimal)
}
