/// Strict UTF-8 decoding: bytes become a `String` only if they are valid
/// UTF-8, never a string with replacement characters.
enum UTF8Validation {
    /// Decodes bytes that must be valid UTF-8.
    ///
    /// Uses the standard library's validating initializer where the platform
    /// has it, and ``isValid(_:)`` before a plain decode elsewhere. A byte
    /// order mark is kept; strip it first if it should not be.
    ///
    /// - Parameter bytes: The bytes to decode.
    /// - Returns: The string, or `nil` if `bytes` is not valid UTF-8.
    static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        return fallbackString(bytes)
    }

    /// The decode ``string(_:)`` uses where `String(validating:as:)` is
    /// unavailable; internal so that tests can exercise it on every platform.
    ///
    /// - Parameter bytes: The bytes to decode.
    /// - Returns: The string, or `nil` if `bytes` is not valid UTF-8.
    static func fallbackString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        guard isValid(bytes) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether bytes are well-formed UTF-8, following table 3-7 of the
    /// Unicode Standard: no overlong forms, no surrogates, nothing above
    /// U+10FFFF, no truncated or stray continuation bytes.
    ///
    /// - Parameter bytes: The bytes to check.
    /// - Returns: `true` if `bytes` is well-formed UTF-8.
    static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        while let lead = iterator.next() {
            if lead < 0x80 {
                continue
            }
            let continuationCount: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF:
                continuationCount = 1
            case 0xE0:
                continuationCount = 2
                secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF:
                continuationCount = 2
            case 0xED:
                continuationCount = 2
                secondRange = 0x80...0x9F
            case 0xF0:
                continuationCount = 3
                secondRange = 0x90...0xBF
            case 0xF1...0xF3:
                continuationCount = 3
            case 0xF4:
                continuationCount = 3
                secondRange = 0x80...0x8F
            default:
                return false
            }
            guard let second = iterator.next(), secondRange.contains(second) else {
                return false
            }
            for _ in 1..<continuationCount {
                guard let next = iterator.next(), next & 0xC0 == 0x80 else {
                    return false
                }
            }
        }
        return true
    }
}
