extension ContiguousBytes {
    /// `withUnsafeBytes` for a body that throws only ``ResponseStreamError``.
    ///
    /// `ContiguousBytes.withUnsafeBytes` rethrows as `any Error`; the error is carried out of
    /// it in a `Result` instead, so the streaming decoders keep their typed `throws`.
    ///
    /// - Parameter body: Reads the bytes, which are valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(ResponseStreamError) -> Result
    ) throws(ResponseStreamError) -> Result {
        let outcome: Swift.Result<Result, ResponseStreamError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(ResponseStreamError) in try body(bytes) }
        }
        return try outcome.get()
    }
}
