extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place for a native string, without
    /// copying or retaining its storage; on a contiguous copy for any other (a bridged
    /// `NSString`, for example).
    ///
    /// The encoder reads every key, value, header and path of every request this way:
    /// `var copy = text; copy.withUTF8 { … }` would retain and release the storage each time,
    /// and iterating `utf8` decodes index by index.
    @inline(__always)
    func withUTF8InPlace<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
