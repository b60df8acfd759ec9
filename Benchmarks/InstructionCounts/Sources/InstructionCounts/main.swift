// Builds one kind of request N times, for callgrind:
//
//   InstructionCounts <case> <N>
//
// `scripts/instruction-counts.sh` runs it with two values of N and prints the
// difference per request, which leaves out start-up and the first request
// (field plans, lazy statics). Cases: `apikit-1`, `minimal-1`, `apikit-10`,
// `minimal-10`, `typical-10`, `apikit-30-nil`, `minimal-30-nil`, `apikit-30`,
// `minimal-30`, `apikit-mixed`, `minimal-mixed`, `apikit-declared`, `minimal-declared` — the
// requests of the encode benchmarks — and the calls of `Calls.swift` (`call-*`), one after the
// other through a `Session` over `StubTransport`: what the pipeline and its middlewares cost
// without a network; and the same calls made in one task (`loop-*`), for their CPU time.

import APIKit

/// Keeps a request alive and opaque to the optimizer.
@inline(never) func consume(_ request: URLRequest) {
    if request.url == nil { print("no URL") }
}

/// Hides a value from the optimizer, as the benchmarks' `identity` does.
@inline(never) func opaque<T>(_ value: T) -> T { value }

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: InstructionCounts <case> <count>")
    exit(2)
}

let builds: [String: () throws -> URLRequest] = [
    "apikit-1": { try opaque(encode1).makeURLRequest() },
    "minimal-1": { HandWritten1.minimal(opaque(encode1)) },
    "apikit-10": { try opaque(encode10).makeURLRequest() },
    "minimal-10": { HandWritten10.minimal(opaque(encode10)) },
    "typical-10": { try HandWritten10.typical(opaque(encode10)) },
    "apikit-30-nil": { try opaque(Encode30Request.twentyNil).makeURLRequest() },
    "minimal-30-nil": { HandWritten30.minimalTwentyNil(opaque(Encode30Request.twentyNil)) },
    "apikit-30": { try opaque(Encode30Request.full).makeURLRequest() },
    "minimal-30": { HandWritten30.minimal(opaque(Encode30Request.full)) },
    "apikit-mixed": { try opaque(encodeMixed).makeURLRequest() },
    "minimal-mixed": { HandWrittenMixed.minimal(opaque(encodeMixed)) },
    "apikit-declared": { try opaque(encodeDeclared).makeURLRequest() },
    "minimal-declared": { HandWrittenDeclared.minimal(opaque(encodeDeclared)) },
]
// `verify`: each APIKit case builds the same request as its hand-written twin.
if arguments[1] == "verify" {
    var failed = false
    for name in builds.keys.sorted() where name.hasPrefix("apikit-") {
        let twin = "minimal-" + name.dropFirst("apikit-".count)
        let (apikit, minimal) = (try builds[name]!(), try builds[twin]!())
        if apikit.url != minimal.url || apikit.httpMethod != minimal.httpMethod
            || apikit.allHTTPHeaderFields != minimal.allHTTPHeaderFields || apikit.httpBody != minimal.httpBody
        {
            print(
                "\(name) and \(twin) differ:\n  \(apikit.url!) \(apikit.allHTTPHeaderFields!)"
                    + "\n  \(minimal.url!) \(minimal.allHTTPHeaderFields!)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}
if let call = calls[arguments[1]] {
    // The first call makes the lazy statics and the field plan: not part of the count.
    call()
    for _ in 0..<count {
        call()
    }
    exit(0)
}
if let loop = loops[arguments[1]] {
    loop(1)  // the lazy statics and the field plan, not part of the count
    loop(count)
    exit(0)
}
guard let build = builds[arguments[1]] else {
    print(
        "unknown case \(arguments[1]); one of \((Array(builds.keys) + Array(calls.keys) + Array(loops.keys)).sorted())")
    exit(2)
}
// The first request makes the field plan and the lazy statics: not part of the count.
consume(try build())
for _ in 0..<count {
    consume(try build())
}
