// Stream: a text/event-stream body of 10,000 events read with `ResponseStream.serverSentEvents`,
// from a `StubTransport` that delivers it in 4 KB chunks as a URLSession data delegate receives
// it (chunk boundaries fall inside lines, CRLFs and multi-byte characters). One iteration reads
// the whole stream; "Events/s" is 10,000 divided by the iteration's wall-clock time, and
// `mallocCountTotal` counts the allocations of the whole stream (divide by 10,000 for one
// event). Verification checks that the chunks decode to the events of the whole body.

import APIKit
import Benchmark

enum StreamFixtures {
    static let eventCount = 10_000
    static let chunkSize = 4096

    /// The body: mostly one-line JSON `data` events as chat and ticker APIs send them, with
    /// a named event, a multi-line event, an `id`, a comment and CRLF line ends mixed in.
    static let body: Data = {
        var text = "retry: 3000\n\n"
        for index in 0..<eventCount {
            switch index % 5 {
            case 0:
                text +=
                    "id: \(index)\nevent: token\ndata: {\"index\":\(index),\"text\":\"caf\u{E9} \u{1F680} hello\"}\n\n"
            case 1:
                text += "data: {\"index\":\(index),\"delta\":{\"content\":\" streaming tokens one by one\"}}\r\n\r\n"
            case 2:
                text += ": keep-alive\ndata: line one of \(index)\ndata: line two\ndata: line three\n\n"
            default:
                text += "data: {\"index\":\(index),\"price\":\"123.45\",\"symbol\":\"YHOO\",\"change\":\"+2\"}\n\n"
            }
        }
        return Data(text.utf8)
    }()

    /// ``body`` cut into 4 KB chunks, each its own `Data` as URLSession hands them over.
    static let chunks: [Data] = stride(from: 0, to: body.count, by: chunkSize).map { start in
        Data(body[start..<min(start + chunkSize, body.count)])
    }

    /// The events of a stream whose body arrives as `chunks`, read as a user reads them.
    static func events(of chunks: [Data]) async throws -> [ServerSentEvent] {
        let stub = StubTransport { _ in .stream(headers: ["Content-Type": "text/event-stream"], chunks: chunks) }
        var events: [ServerSentEvent] = []
        events.reserveCapacity(eventCount)
        for try await event in EventsRequest().stream(using: Session(transport: stub)).serverSentEvents {
            events.append(event)
        }
        return events
    }

    /// The events of ``chunks``.
    static func decodeChunks() async throws -> [ServerSentEvent] {
        try await events(of: chunks)
    }
}

/// A GET whose response is the stubbed event stream.
private struct EventsRequest: Request, RequestConfiguration {
    typealias Response = Data
    var base: URL { URL(string: "https://stream.example")! }
    var path: String { "events" }
    var method: HTTPMethod { .get }
    var parser: RawDataParser { RawDataParser() }
}

private let eventsPerSecond = BenchmarkMetric.custom("Events/s", polarity: .prefersLarger, useScalingFactor: false)

func registerStreamBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, eventsPerSecond, .mallocCountTotal],
        timeUnits: .milliseconds,
        units: [eventsPerSecond: .count, .mallocCountTotal: .count],
        warmupIterations: 3,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 200
    )
    let name = "Decode SSE 10,000 events in 4 KB chunks: ResponseStream.serverSentEvents"
    Benchmark(name, configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = ContinuousClock.now
            let events = try await StreamFixtures.decodeChunks()
            let elapsed = ContinuousClock.now - start
            blackHole(events)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            benchmark.measurement(eventsPerSecond, Int(Double(events.count) / max(seconds, 1e-9)))
        }
    }
}
