// Parse: a JSON body through `JSONParser<Feed>` against `JSONDecoder` called
// directly. Both sides make their decoder per body, as a request does
// (`JSONDecodableRequest.parser` is a new `JSONParser()`, with a new
// `JSONDecoder`, for every request).

import APIKit
import Benchmark

private func parseConfiguration(maxIterations: Int) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        units: [.throughput: .count, .mallocCountTotal: .count],
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: maxIterations
    )
}

private func parseBenchmarks(_ label: String, _ body: Data, maxIterations: Int) {
    let configuration = parseConfiguration(maxIterations: maxIterations)
    Benchmark("Parse \(label): JSONParser", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONParser<Feed>().parse(data: identity(body)))
        }
    }
    Benchmark("Parse \(label): JSONDecoder", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode(Feed.self, from: identity(body)))
        }
    }
}

func registerParseBenchmarks() {
    parseBenchmarks("2 KB", ParseFixtures.small.data, maxIterations: 100_000)
    parseBenchmarks("200 KB", ParseFixtures.large.data, maxIterations: 2_000)
}
