#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a response's body to a file as a transport's stream events bring it, chunk by chunk:
/// the head, the file, the bytes written and the checks that ``DownloadFile`` (an attempt of a
/// resumable download) and ``StreamedDownload`` (the default transport download) share.
///
/// A value its owner keeps under its lock. It neither cancels nor completes anything: each
/// method says what happened, and an error it throws ends the body — the owner cancels the
/// transfer and reports the error.
struct BodyFileWriter {
    /// The file the body goes to.
    var fileURL: URL
    /// The response head, once ``take(_:)`` took it.
    private(set) var response: URLResponse?
    /// The bytes of this body written so far.
    private(set) var bytes: Int64 = 0
    /// The bytes in the file before this body: those of a download being resumed, until
    /// ``open(keeping:)`` says how many it keeps; 0 otherwise.
    private(set) var offset: Int64
    private var file: FileHandle?

    /// - Parameters:
    ///   - fileURL: The file the body goes to.
    ///   - offset: The bytes already in that file, when it is the partial file of a download
    ///     being resumed.
    init(fileURL: URL, offset: Int64 = 0) {
        self.fileURL = fileURL
        self.offset = offset
    }

    /// Takes the response head; `false`, taking nothing, when a head came already.
    mutating func take(_ head: URLResponse) -> Bool {
        guard response == nil else { return false }
        response = head
        return true
    }

    /// Opens the file for the body: a new, empty file when `offset` is `nil`; else the existing
    /// file, cut to its first `offset` bytes, written after them.
    ///
    /// - Parameter offset: The bytes of the existing file to keep, or `nil` to create the file.
    /// - Returns: The progress before the first chunk: the bytes kept, out of those plus the
    ///   `Content-Length`.
    /// - Throws: ``DownloadError/fileWriteFailed(_:underlying:)``; a file it created is removed.
    mutating func open(keeping offset: Int64?) throws(DownloadError) -> TransferProgress {
        if let offset {
            file = try Self.openFile(fileURL, keeping: offset)
        } else {
            file = try Self.createFile(fileURL)
        }
        self.offset = offset ?? 0
        return progress
    }

    /// Writes `chunk` after the bytes written so far.
    ///
    /// - Returns: The progress after the chunk; `nil` when no file is open (the owner did not
    ///   open one, or closed it): the chunk is dropped.
    /// - Throws: `URLError(.badServerResponse)` for a chunk before the head (a transport breaking
    ///   the order); ``DownloadError/fileWriteFailed(_:underlying:)``.
    mutating func write(_ chunk: Data) throws -> TransferProgress? {
        guard response != nil else { throw URLError(.badServerResponse) }
        guard let file else { return nil }
        do {
            try file.write(contentsOf: chunk)
        } catch {
            throw DownloadError.fileWriteFailed(fileURL, underlying: error)
        }
        bytes += Int64(chunk.count)
        return progress
    }

    /// Closes the file at the body's normal end.
    ///
    /// - Returns: The response head.
    /// - Throws: `URLError(.badServerResponse)` for an end before the head;
    ///   ``DownloadError/fileWriteFailed(_:underlying:)`` when the file cannot be closed.
    mutating func finish() throws -> URLResponse {
        guard let response else { throw URLError(.badServerResponse) }
        if let file {
            self.file = nil
            do {
                try file.close()
            } catch {
                throw DownloadError.fileWriteFailed(fileURL, underlying: error)
            }
        }
        return response
    }

    /// What a transfer that failed with `error` ends the body with: a
    /// ``DownloadError/incompleteBody(received:expected:)`` when it cut the body off before its
    /// `Content-Length` (``DownloadOutcome/cutOff(by:received:offset:response:)``), else `error`.
    func failure(_ error: any Error) -> any Error {
        guard let response else { return error }
        return DownloadOutcome.cutOff(by: error, received: bytes, offset: offset, response: response) ?? error
    }

    /// Closes the file, if it is open, when the body ends otherwise than normally.
    mutating func close() {
        try? file?.close()
        file = nil
    }

    /// The progress so far: the bytes in the file, out of the bytes kept plus the `Content-Length`.
    private var progress: TransferProgress {
        TransferProgress(
            bytesReceived: offset + bytes,
            expectedBytesToReceive: response.flatMap { TransferProgress.known($0.expectedContentLength) }
                .map { offset.addingSaturating($0) })
    }

    private static func openFile(_ url: URL, keeping offset: Int64) throws(DownloadError) -> FileHandle {
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(offset))
            try handle.seek(toOffset: UInt64(offset))
            return handle
        } catch {
            throw .fileWriteFailed(url, underlying: error)
        }
    }

    private static func createFile(_ url: URL) throws(DownloadError) -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw .fileWriteFailed(url, underlying: CocoaError(.fileWriteUnknown))
        }
        do {
            return try FileHandle(forWritingTo: url)
        } catch {
            _ = unlink(url.path)
            throw .fileWriteFailed(url, underlying: error)
        }
    }
}
