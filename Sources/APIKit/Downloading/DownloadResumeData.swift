/// What a resumable download that failed left behind: its partial file and what is needed to
/// ask the server for the rest.
///
/// A download opted in with ``Request/download(to:using:resumable:resumingFrom:options:progress:)`` keeps its
/// partial temporary file when it fails — a transport error mid-body, a body cut short, a
/// cancellation, a rejected status — and the thrown ``RequestError`` carries this value as
/// ``RequestError/downloadResumeData``. Pass it to
/// ``Request/download(to:using:resumable:resumingFrom:options:progress:)`` with the same request to fetch
/// only the missing bytes (`Range: bytes=N-`, `If-Range: <validator>`), or the whole body again
/// when the response had no validator that `If-Range` may carry.
///
/// The partial file is a hidden file next to the destination, never the destination itself.
/// It stays until a resumed download completes (it becomes the destination) or fails for
/// good; to give up on it, remove the file at ``partialFileURL``
/// (`try? FileManager.default.removeItem(at: resume.partialFileURL)`). The value is `Codable`,
/// so it can outlive the process.
///
/// ```swift
/// do {
///     _ = try await ReportRequest(id: 7).download(to: destination, using: session, resumable: true)
/// } catch let error where error.downloadResumeData != nil {
///     let resume = error.downloadResumeData!
///     _ = try await ReportRequest(id: 7).download(to: destination, using: session, resumingFrom: resume)
/// }
/// ```
public struct DownloadResumeData: Sendable, Hashable, Codable {
    /// The partial file: a hidden `.NAME.UUID.download` in the destination's directory.
    public var partialFileURL: URL
    /// How many bytes of the body the partial file holds, and where a resume asks the rest to
    /// start. A download cancelled once its body was complete keeps the whole file and counts
    /// all but its last byte, which the resume fetches again (a server answers a range past the
    /// end with a `416`, which would not complete the file).
    public var bytesReceived: Int64
    /// The response's strong `ETag`, or else — when it had no entity tag — its `Last-Modified`
    /// if that is a strong validator (at least 60 seconds before the response's `Date`); sent as
    /// `If-Range` so that a changed resource is sent whole. `nil` when there is no such
    /// validator: a resumed download then asks for the whole body again, from byte 0, rather
    /// than append bytes that may belong to another version. After a `206` without a strong
    /// `ETag`, the validator the bytes before it came with.
    var validator: String?

    /// Creates resume data; APIKit makes it when a resumable download fails. Callers get one
    /// from ``RequestError/downloadResumeData``, or decode one they stored (the type is
    /// `Codable`).
    ///
    /// - Parameters:
    ///   - partialFileURL: The partial file.
    ///   - bytesReceived: How many bytes it holds.
    ///   - validator: The `ETag` or `Last-Modified` of the response the bytes came from.
    init(partialFileURL: URL, bytesReceived: Int64, validator: String? = nil) {
        self.partialFileURL = partialFileURL
        self.bytesReceived = bytesReceived
        self.validator = validator
    }

    /// The validator of `response` to send as `If-Range`, as RFC 9110 (13.1.5) allows it: a
    /// strong `ETag`; else, when the response has no entity tag at all, a `Last-Modified` that
    /// is a strong validator — at least 60 seconds before the response's `Date` (8.8.2.2).
    /// `nil` otherwise (a weak `ETag`, a `Last-Modified` without such a `Date`): a resume then
    /// starts again from byte 0.
    static func validator(of response: URLResponse) -> String? {
        guard let http = response as? HTTPURLResponse else { return nil }
        func header(_ name: String) -> String? {
            http.value(forHTTPHeaderField: name).flatMap { $0.isEmpty ? nil : $0 }
        }
        if let etag = header("ETag") {
            return etag.hasPrefix("W/") ? nil : etag
        }
        guard let modified = header("Last-Modified"), let modifiedDate = HTTPDate.parse(modified),
            let sent = header("Date").flatMap({ HTTPDate.parse($0) }),
            sent.timeIntervalSince(modifiedDate) >= Self.strongLastModifiedAge
        else { return nil }
        return modified
    }

    /// The validator after `response`, a `206`, continued a file whose bytes came with
    /// `previous`: the response's own strong `ETag`, else `previous`, which the `206` matched.
    /// A `Last-Modified` of the `206` never replaces an entity tag already known for the
    /// representation, and once a `206` has a weak `ETag` no date is one either: `previous` stays
    /// only when it is an entity tag (RFC 9110 13.1.5).
    static func validator(continuing previous: String?, from response: URLResponse) -> String? {
        if let etag = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag"), !etag.isEmpty {
            guard etag.hasPrefix("W/") else { return etag }
            return previous.flatMap { $0.hasPrefix("\"") ? $0 : nil }
        }
        return previous ?? validator(of: response)
    }

    /// How long before the response's `Date` a `Last-Modified` must be to be a strong validator.
    static let strongLastModifiedAge: TimeInterval = 60
}

extension RequestError {
    /// What a failed resumable download left behind, to resume it with
    /// ``Request/download(to:using:resumable:resumingFrom:options:progress:)``; `nil` for every other
    /// error, for a download that was not resumable, and when nothing can be resumed (the
    /// failure came before any response, or the partial file was unusable and removed).
    ///
    /// ```swift
    /// if let resume = error.downloadResumeData { print(resume.bytesReceived, "bytes kept") }
    /// ```
    public var downloadResumeData: DownloadResumeData? {
        context.downloadResumeData
    }

    /// The same error carrying `resumeData`.
    func with(downloadResumeData resumeData: DownloadResumeData?) -> RequestError {
        guard let resumeData else { return self }
        return withContext(context.with(downloadResumeData: resumeData))
    }
}
