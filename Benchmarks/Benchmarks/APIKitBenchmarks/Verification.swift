// Checks, before anything is measured, that each benchmark and its baseline
// do the same work. A benchmark that compares different work is worthless, so
// a mismatch stops the run with the difference on stderr.

import APIKit
import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum Verification {
    static func run() {
        var failures: [String] = []
        func check(_ label: String, _ body: () throws -> [String]) {
            do {
                failures += try body().map { "\(label): \($0)" }
            } catch {
                failures.append("\(label): threw \(error)")
            }
        }

        // Encode: APIKit and hand-written minimal must be identical, body bytes included.
        check("Encode 1 field") {
            differences(try encode1.makeURLRequest(), HandWritten1.minimal(encode1), body: .exactBytes)
        }
        check("Encode 10 fields") {
            differences(try encode10.makeURLRequest(), HandWritten10.minimal(encode10), body: .exactBytes)
        }
        check("Encode 30 fields (20 nil)") {
            let twentyNil = Encode30Request.twentyNil
            return differences(
                try twentyNil.makeURLRequest(), HandWritten30.minimalTwentyNil(twentyNil), body: .exactBytes)
                + differences(try twentyNil.makeURLRequest(), try encode10.makeURLRequest(), body: .exactBytes)
                .map { "differs from the 10-field request: \($0)" }
        }
        check("Encode 30 fields") {
            differences(try Encode30Request.full.makeURLRequest(), HandWritten30.minimal(.full), body: .exactBytes)
        }
        check("Encode form, path and a user's wrapper") {
            differences(try encodeMixed.makeURLRequest(), HandWrittenMixed.minimal(encodeMixed), body: .exactBytes)
        }
        // Typical: JSONEncoder writes the members in its own order, so the body is
        // compared as JSON; everything else must be identical.
        check("Encode 10 fields (typical)") {
            differences(try encode10.makeURLRequest(), try HandWritten10.typical(encode10), body: .sameJSON)
        }
        // The 30-field fixture really has 30 parameters, 20 of them nil in `twentyNil`.
        check("Encode 30 fields (fixture)") {
            let declared = Mirror(reflecting: Encode30Request.full).children.count
            let nilCount =
                Mirror(reflecting: Encode30Request.twentyNil).children.count {
                    String(describing: $0.value).contains("wrappedValue: nil")
                }
                - Mirror(reflecting: encode10).children.count {
                    String(describing: $0.value).contains("wrappedValue: nil")
                }
            var problems: [String] = []
            if declared != 30 { problems.append("declares \(declared) properties, not 30") }
            if nilCount != 20 { problems.append("twentyNil has \(nilCount) extra nil fields, not 20") }
            return problems
        }

        // Parse: both sides decode the fixture to the value it was made from.
        for (label, fixture) in [("2 KB", ParseFixtures.small), ("200 KB", ParseFixtures.large)] {
            check("Parse \(label)") {
                var problems: [String] = []
                if try JSONParser<Feed>().parse(data: fixture.data) != fixture.feed {
                    problems.append("JSONParser decoded a different value")
                }
                if try JSONDecoder().decode(Feed.self, from: fixture.data) != fixture.feed {
                    problems.append("JSONDecoder decoded a different value")
                }
                return problems
            }
        }

        // Stream: the 4 KB chunks give the events of the whole body, all 10,000 of them.
        check("Decode SSE") {
            let expected = try waitFor { try await StreamFixtures.events(of: [StreamFixtures.body]) }
            let events = try waitFor { try await StreamFixtures.decodeChunks() }
            var problems: [String] = []
            if expected.count != StreamFixtures.eventCount {
                problems.append("the body holds \(expected.count) events, not \(StreamFixtures.eventCount)")
            }
            if events != expected {
                problems.append("the chunks decoded to different events than the whole body")
            }
            return problems
        }

        // E2E: the raw request is the one APIKit sends.
        if let base = endToEndBase {
            check("E2E GET") {
                let request = ItemsRequest(base: URL(string: base)!)
                return differences(
                    try request.makeURLRequest(), RawItems.urlRequest(request, base: base), body: .exactBytes)
            }
        }

        guard failures.isEmpty else {
            let message = (["APIKitBenchmarks: the benchmarks would compare different work:"] + failures)
                .joined(separator: "\n  ")
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(1)
        }
    }

    enum BodyComparison {
        case exactBytes
        case sameJSON
    }

    /// What differs between two requests: URL, method, header fields (names
    /// compared case-insensitively, order irrelevant) and body.
    static func differences(_ apikit: URLRequest, _ other: URLRequest, body: BodyComparison) -> [String] {
        var result: [String] = []
        if apikit.url?.absoluteString != other.url?.absoluteString {
            result.append("URL \(apikit.url?.absoluteString ?? "nil") ≠ \(other.url?.absoluteString ?? "nil")")
        }
        if (apikit.httpMethod ?? "GET") != (other.httpMethod ?? "GET") {
            result.append("method \(apikit.httpMethod ?? "nil") ≠ \(other.httpMethod ?? "nil")")
        }
        let apikitHeaders = normalized(apikit.allHTTPHeaderFields)
        let otherHeaders = normalized(other.allHTTPHeaderFields)
        if apikitHeaders != otherHeaders {
            result.append(
                "headers \(apikitHeaders.sorted { $0.key < $1.key }) ≠ \(otherHeaders.sorted { $0.key < $1.key })")
        }
        let apikitBody = apikit.httpBody ?? Data()
        let otherBody = other.httpBody ?? Data()
        switch body {
        case .exactBytes:
            if apikitBody != otherBody {
                result.append(
                    "body \(String(decoding: apikitBody, as: UTF8.self)) ≠ \(String(decoding: otherBody, as: UTF8.self))"
                )
            }
        case .sameJSON:
            if canonicalJSON(apikitBody) == nil || canonicalJSON(apikitBody) != canonicalJSON(otherBody) {
                result.append(
                    "JSON body \(String(decoding: apikitBody, as: UTF8.self)) ≠ \(String(decoding: otherBody, as: UTF8.self))"
                )
            }
        }
        return result
    }

    private static func normalized(_ fields: [String: String]?) -> [String: String] {
        Dictionary((fields ?? [:]).map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    private static func canonicalJSON(_ data: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }
}

/// Prints a notice once per `swift package benchmark` run, although
/// package-benchmark runs this executable once to list the benchmarks and once
/// more for each benchmark: the runs of one invocation share a parent process,
/// whose pid and start time are kept in a file next to the executable.
enum SkipNotice {
    static func printOnce(_ message: String) {
        // Next to the executable (in .build), not in the working directory:
        // package-benchmark starts the executable with a bare name as argv[0],
        // which is all that `CommandLine` and `Bundle.main` know of it.
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let directory =
            executable.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let marker = directory.appendingPathComponent(".apikit-benchmarks-notice")
        let parent = getppid()
        let startTime =
            (try? String(contentsOfFile: "/proc/\(parent)/stat", encoding: .utf8))
            .flatMap { $0.split(separator: ")").last?.split(separator: " ").dropFirst(19).first }
            .map(String.init) ?? "?"
        let key = "\(parent) \(startTime)"
        if let previous = try? String(contentsOf: marker, encoding: .utf8), previous == key {
            return
        }
        try? key.write(to: marker, atomically: true, encoding: .utf8)
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// The result of `operation`, waited for on this thread: the checks run before anything is
/// registered, outside any task.
private func waitFor<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
    let result = Locked<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do { result.set(.success(try await operation())) } catch { result.set(.failure(error)) }
        done.signal()
    }
    done.wait()
    return try result.get()!.get()
}

/// A value set on one thread and read on another.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
