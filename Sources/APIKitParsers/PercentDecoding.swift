/// Percent-decoding of URL-encoded bytes, as used by
/// `application/x-www-form-urlencoded` bodies.
///
/// Works on UTF-8 bytes directly: `%XY` (either case of hex digit) becomes the
/// byte `0xXY`, `+` optionally becomes a space, and every other byte is copied.
/// Unlike Foundation's `removingPercentEncoding`, a malformed escape is an
/// error that says where it is, and no intermediate `String` is built.
enum PercentDecoding {
    /// Why bytes could not be decoded.
    enum Failure: Error, Equatable {
        /// A `%` is not followed by two hex digits.
        ///
        /// - Parameters:
        ///   - offset: The position of the `%`, counted in bytes from the
        ///     start of the input.
        ///   - escape: The `%` and the at most two bytes after it.
        case malformedEscape(offset: Int, escape: [UInt8])
        /// The decoded bytes are not valid UTF-8.
        case invalidUTF8
    }

    /// Decodes percent-escapes, and `+` if asked, into raw bytes.
    ///
    /// - Parameters:
    ///   - input: The encoded bytes.
    ///   - plusAsSpace: Whether `+` stands for a space, as in form data.
    /// - Returns: The decoded bytes.
    /// - Throws: ``Failure/malformedEscape(offset:escape:)`` for a `%` that
    ///   is not followed by two hex digits.
    static func decode<Bytes: Collection<UInt8>>(
        _ input: Bytes,
        plusAsSpace: Bool
    ) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        try decode(input, from: input.startIndex, offset: 0, plusAsSpace: plusAsSpace, into: &output)
        return output
    }

    /// Decodes percent-escapes, and `+` if asked, into a string.
    ///
    /// Input without `%` (or `+`, when it stands for a space) is validated and
    /// converted without an intermediate buffer.
    ///
    /// - Parameters:
    ///   - input: The encoded bytes.
    ///   - plusAsSpace: Whether `+` stands for a space, as in form data.
    /// - Returns: The decoded text.
    /// - Throws: ``Failure/malformedEscape(offset:escape:)`` for a `%` that
    ///   is not followed by two hex digits, ``Failure/invalidUTF8`` if the
    ///   decoded bytes are not valid UTF-8.
    static func decodeString<Bytes: Collection<UInt8>>(
        _ input: Bytes,
        plusAsSpace: Bool
    ) throws(Failure) -> String {
        let firstSpecial = input.firstIndex { byte in
            byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+"))
        }
        guard let firstSpecial else {
            guard let string = UTF8Validation.string(input) else {
                throw .invalidUTF8
            }
            return string
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        output.append(contentsOf: input[..<firstSpecial])
        try decode(
            input,
            from: firstSpecial,
            offset: output.count,
            plusAsSpace: plusAsSpace,
            into: &output
        )
        guard let string = UTF8Validation.string(output) else {
            throw .invalidUTF8
        }
        return string
    }

    /// Decodes `input[start...]`, appending to `output`.
    ///
    /// - Parameters:
    ///   - input: The encoded bytes.
    ///   - start: Where to start decoding.
    ///   - offset: The byte offset of `start` from `input.startIndex`.
    ///   - plusAsSpace: Whether `+` stands for a space.
    ///   - output: The buffer to append decoded bytes to.
    /// - Throws: ``Failure/malformedEscape(offset:escape:)`` for a `%` that
    ///   is not followed by two hex digits.
    private static func decode<Bytes: Collection<UInt8>>(
        _ input: Bytes,
        from start: Bytes.Index,
        offset: Int,
        plusAsSpace: Bool,
        into output: inout [UInt8]
    ) throws(Failure) {
        var index = start
        var offset = offset
        while index != input.endIndex {
            let byte = input[index]
            if byte == UInt8(ascii: "%") {
                let first = input.index(after: index)
                let second = first == input.endIndex ? first : input.index(after: first)
                guard second != input.endIndex,
                    let high = hexValue(input[first]),
                    let low = hexValue(input[second])
                else {
                    let end = second == input.endIndex ? second : input.index(after: second)
                    throw .malformedEscape(offset: offset, escape: Array(input[index..<end]))
                }
                output.append(high &<< 4 | low)
                index = input.index(after: second)
                offset &+= 3
            } else {
                output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = input.index(after: index)
                offset &+= 1
            }
        }
    }

    /// The value of an ASCII hex digit.
    ///
    /// - Parameter byte: A byte that may be `0`–`9`, `A`–`F` or `a`–`f`.
    /// - Returns: The digit's value, or `nil` for any other byte.
    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"):
            byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"):
            byte &- UInt8(ascii: "a") &+ 10
        default:
            nil
        }
    }
}
