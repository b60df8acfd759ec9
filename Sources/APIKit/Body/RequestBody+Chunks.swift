extension RequestBody {
    /// The body's bytes as an `AsyncSequence` of chunks of at most `size` bytes, for an HTTP
    /// engine that streams a body of known length (send ``length`` as its length).
    ///
    /// Each iteration reads the body from its start, so a retry may iterate again. Files are
    /// read with blocking reads of one chunk at a time, which take microseconds for a local
    /// file; no more than one chunk is held.
    ///
    /// ```swift
    /// var sent: Int64 = 0
    /// for try await chunk in requestBody.chunks() {
    ///     try await connection.write(chunk)   // your engine's write
    ///     sent += Int64(chunk.count)
    /// }
    /// ```
    ///
    /// - Parameter size: The largest chunk, in bytes; 64 KiB by default, at least 1.
    /// - Returns: The chunks, which throw ``RequestBodyError`` when a file cannot be read or
    ///   became shorter.
    public func chunks(size: Int = 64 * 1024) -> Chunks {
        Chunks(segments: segments, size: max(1, size))
    }

    /// The bytes of a ``RequestBody`` in chunks, read as they are asked for: see
    /// ``RequestBody/chunks(size:)``.
    ///
    /// Each iteration reads the body again from its start, so a retried request can be sent
    /// again; a file that shrank or cannot be read throws ``RequestBodyError``.
    public struct Chunks: AsyncSequence, Sendable {
        let segments: [Segment]
        let size: Int

        /// Reads the body from its start.
        ///
        /// - Returns: An iterator over the chunks.
        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: RequestBodyReader(segments: segments), size: size)
        }

        /// Reads the chunks of a ``RequestBody/Chunks`` one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            var reader: RequestBodyReader
            let size: Int

            /// The next chunk, or `nil` at the end of the body.
            ///
            /// - Returns: Up to the chunk size of the next bytes.
            /// - Throws: ``RequestBodyError`` when a file cannot be read or became shorter.
            public mutating func next() async throws -> Data? {
                try reader.read(upTo: size)
            }
        }
    }
}
