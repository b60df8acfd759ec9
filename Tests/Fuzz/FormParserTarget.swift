// libFuzzer target: FormURLEncodedDataParser on arbitrary bytes.
// Built by scripts/fuzz.sh together with Sources/APIKitParsers (one module), not by SwiftPM.
//
// Checks, beyond "no crash": a body either parses or throws ParsingError; with
// `.useLast` it never fails on duplicates, and every parsed key and value is valid text.

import Foundation

/// libFuzzer's entry point: parses one input with each duplicate-key policy.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: `0`, as libFuzzer requires; a finding stops the process instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let body = Data(bytes: start, count: count)
    for policy in [FormURLEncodedDataParser.DuplicateKeyPolicy.fail, .useFirst, .useLast] {
        do {
            let fields = try FormURLEncodedDataParser(duplicateKeys: policy).parse(data: body)
            for (key, value) in fields {
                precondition(String(validating: key.utf8, as: UTF8.self) == key, "key is not valid text")
                precondition(String(validating: value.utf8, as: UTF8.self) == value, "value is not valid text")
            }
        } catch is ParsingError {
            // The expected way to refuse a body.
        } catch {
            preconditionFailure("FormURLEncodedDataParser threw \(type(of: error)), not ParsingError")
        }
    }
    return 0
}
