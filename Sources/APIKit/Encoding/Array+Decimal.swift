extension [UInt8] {
    /// Appends an integer's decimal digits, with a `-` when it is negative: the text
    /// `String(int)` holds, without making that string, which costs more than the digits.
    /// Every byte is unreserved, so the digits need no percent-encoding.
    @inline(__always)
    mutating func appendDecimal(_ int: Int) {
        // 24 bytes on the stack hold the 19 digits of any 64-bit magnitude and a sign.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            var magnitude = int.magnitude
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if int < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]).assumingMemoryBound(to: UInt8.self))
        }
    }
}
