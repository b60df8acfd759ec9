/// Writes the body parameters of a `.multipart` body as a ``MultipartBody`` (RFC 7578).
///
/// Each part is
///
///     --<boundary> CRLF
///     Content-Disposition: form-data; name="<name>"[; filename="<filename>"] CRLF
///     [Content-Type: <type> CRLF]
///     CRLF
///     <content> CRLF
///
/// and the body ends with `--<boundary>--` CRLF; a body whose parameters are all `nil` holds
/// only that line. In a name and a filename `"` is written as `%22`, as browsers do (RFC 7578
/// section 4.2 and the HTML standard), other characters as UTF-8; `filename*=` is not sent, as
/// RFC 7578 requires. A name or filename holding CR, LF, NUL or another control character
/// (tab excepted, as in header values) is rejected before anything is sent. Which parts a
/// value becomes is documented on ``Part``.
enum MultipartWriter {
    /// One part before the boundary is chosen.
    private struct Draft {
        /// The header lines, each ending in CRLF, without the blank line.
        var headers: String
        var content: RequestBody.Segment
    }

    static func body(
        _ declared: [DeclaredParameters.Member],
        strategy: EncodingStrategy = .inherit
    ) throws(BuildError) -> MultipartBody {
        var drafts: [Draft] = []
        for index in declared.indices {
            let resolved = ResolvedStrategy(field: declared[index].parameter.strategy, request: strategy)
            try appendParts(of: declared[index], strategy: resolved, to: &drafts)
        }
        let boundary = chooseBoundary(for: drafts)
        var segments: [RequestBody.Segment] = []
        var pending = Data()
        for draft in drafts {
            pending.append(contentsOf: Array("--\(boundary)\r\n\(draft.headers)\r\n".utf8))
            switch draft.content {
            case .bytes(let bytes):
                pending.append(bytes)
            case .file:
                segments.append(.bytes(pending))
                segments.append(draft.content)
                pending = Data()
            }
            pending.append(contentsOf: [0x0D, 0x0A])
        }
        pending.append(contentsOf: Array("--\(boundary)--\r\n".utf8))
        segments.append(.bytes(pending))
        return MultipartBody(boundary: boundary, body: RequestBody(segments: segments))
    }

    // MARK: Parts

    private static func appendParts(
        of item: DeclaredParameters.Member,
        strategy: ResolvedStrategy,
        to drafts: inout [Draft]
    ) throws(BuildError) {
        let key = item.parameter.key
        let field = item.field
        let value = item.parameter.value
        guard let name = escaped(key) else { throw .invalidPartName(key, field: field) }
        if value.isNil {
            // Omitted by default; `.empty` and `.null` write a text part.
            if let text = strategy.nils.text {
                drafts.append(Draft(headers: disposition(name), content: .bytes(Data(text.utf8))))
            }
            return
        }
        let unwrapped = value.unwrapped
        if let file = unwrapped as? MultipartFile {
            drafts.append(try filePart(file, name: name, key: key, field: field))
            return
        }
        if let files = unwrapped as? [MultipartFile] {
            for file in files { drafts.append(try filePart(file, name: name, key: key, field: field)) }
            return
        }
        if let data = unwrapped as? Data {
            let headers = disposition(name) + "Content-Type: application/octet-stream\r\n"
            drafts.append(Draft(headers: headers, content: .bytes(data)))
            return
        }
        // Scalars and lists of scalars are text parts written with the strategies, one part per
        // element; anything with structure is one JSON part.
        let tree: FormValue
        do {
            tree = try FormValue.make(value)
        } catch {
            throw error.buildError(field: field, key: key)
        }
        guard let texts = tree.flatTexts(strategy) else {
            let headers = disposition(name) + "Content-Type: application/json\r\n"
            drafts.append(
                Draft(headers: headers, content: .bytes(try json(value, key: key, field: field, strategy: strategy))))
            return
        }
        for text in texts {
            drafts.append(Draft(headers: disposition(name), content: .bytes(Data(text.utf8))))
        }
    }

    private static func filePart(
        _ file: MultipartFile,
        name: String,
        key: String,
        field: String
    ) throws(BuildError) -> Draft {
        guard let filename = escaped(file.filename) else {
            throw .invalidFilename(file.filename, field: field, key: key)
        }
        try HeaderRules.checkValue(file.mimeType, name: "Content-Type", field: field)
        let headers =
            "Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n"
            + "Content-Type: \(file.mimeType)\r\n"
        switch file.source {
        case .data(let data):
            return Draft(headers: headers, content: .bytes(data))
        case .file(let url):
            let size = try FileCheck.size(of: url, field: field, key: key)
            return Draft(headers: headers, content: .file(url, size: size))
        }
    }

    private static func disposition(_ name: String) -> String {
        "Content-Disposition: form-data; name=\"\(name)\"\r\n"
    }

    private static func json(
        _ value: DeclaredValue,
        key: String,
        field: String,
        strategy: ResolvedStrategy
    ) throws(BuildError) -> Data {
        do {
            return try JSONBodyWriter.document(value, strategy: strategy)
        } catch {
            throw .valueEncodingFailed(field: field, key: key, underlying: error)
        }
    }

    /// `text` with `"` percent-encoded, or `nil` when it holds a control character: CR, LF,
    /// NUL, another C0 character other than tab, or DEL — the bytes a header value may not
    /// hold (``HTTPSyntax/isValidFieldValue(_:)``).
    static func escaped(_ text: String) -> String? {
        guard HTTPSyntax.isValidFieldValue(text) else { return nil }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\"" {
                result += "%22"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: Boundary

    /// A boundary that occurs in no part held in memory (see ``MultipartBoundary``).
    private static func chooseBoundary(for drafts: [Draft]) -> String {
        while true {
            let boundary = MultipartBoundary.make()
            let bytes = Data(boundary.utf8)
            let occurs = drafts.contains { draft in
                if draft.headers.contains(boundary) { return true }
                guard case .bytes(let content) = draft.content else { return false }
                return content.range(of: bytes) != nil
            }
            if !occurs { return boundary }
        }
    }
}
