extension ContiguousBytes {
    /// `withUnsafeBytes` for a body that throws only ``StreamDecodingError``.
    ///
    /// `ContiguousBytes.withUnsafeBytes` rethrows as `any Error`; the error is carried out of
    /// it in a `Result` instead, so the streaming decoders keep their typed `throws`.
    ///
    /// - Parameter body: Reads the bytes, which are valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(StreamDecodingError) -> Result
    ) throws(StreamDecodingError) -> Result {
        let outcome: Swift.Result<Result, StreamDecodingError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(StreamDecodingError) in try body(bytes) }
        }
        return try outcome.get()
    }
}
