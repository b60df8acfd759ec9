// libFuzzer target: a configuration read in place by its field plan against the Mirror walk.
// Built by scripts/fuzz.sh together with Sources/APIKit and ReadingCorpus.swift (one module,
// APIKit), not by SwiftPM.
//
// Checks, beyond "no crash": over the corpus's request types (every FieldKind, declared fields,
// users' wrappers, every strategy), the two readings build the same URL, method, headers and
// body bytes, or fail with the same error.

/// libFuzzer's entry point: builds one request of the corpus both ways and compares them.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: `0`, as libFuzzer requires; a disagreement stops the process instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFieldPlan(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let difference = ReadingCorpus.difference(for: bytes) {
        fatalError("the plan and Mirror read differently: \(difference)")
    }
    return 0
}
