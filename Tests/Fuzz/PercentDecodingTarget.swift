// libFuzzer target: PercentDecoding against a byte-by-byte reference decoder.
// Built by scripts/fuzz.sh together with Sources/APIKitParsers (one module), not by SwiftPM.

/// libFuzzer's entry point: decodes one input, with and without `+` as space, and compares
/// the result with the reference decoder.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: `0`, as libFuzzer requires; a disagreement stops the process instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPercentDecoding(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    for plusAsSpace in [false, true] {
        let expected = referenceDecode(input, plusAsSpace: plusAsSpace)
        let bytes = try? PercentDecoding.decode(input, plusAsSpace: plusAsSpace)
        precondition(bytes == expected, "decode disagrees with the reference on \(input)")
        let text = try? PercentDecoding.decodeString(input, plusAsSpace: plusAsSpace)
        let expectedText = expected.flatMap { String(validating: $0, as: UTF8.self) }
        precondition(text == expectedText, "decodeString disagrees with the reference on \(input)")
        // A slice that does not start at index 0 must decode the same.
        let padded = [UInt8(ascii: "x")] + input
        let slice = try? PercentDecoding.decode(padded.dropFirst(), plusAsSpace: plusAsSpace)
        precondition(slice == expected, "decode of a slice differs on \(input)")
    }
    return 0
}

/// The obvious decoder: `%XX` (hex digits, either case) is one byte, `+` a space when asked,
/// anything else itself; a `%` without two hex digits after it makes the input invalid.
private func referenceDecode(_ input: [UInt8], plusAsSpace: Bool) -> [UInt8]? {
    func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    var output: [UInt8] = []
    var index = 0
    while index < input.count {
        let byte = input[index]
        if byte == UInt8(ascii: "%") {
            guard index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2])
            else { return nil }
            output.append(high << 4 | low)
            index += 3
        } else {
            output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
    }
    return output
}
