/// Writes a `URLRequest` as a `curl` command line, redacted by a ``LogPrivacy``.
///
/// Every argument is shell-quoted (single quotes, `'` written as `'\''`) unless it holds only
/// characters a POSIX shell reads literally. Headers come sorted by name. The body is
/// `--data-binary` followed by the text when the privacy reveals bodies and the body is UTF-8,
/// and by a placeholder naming its size otherwise — `'@<request body: 12 bytes, not logged>'`
/// or, for a streamed body, `'@<request body: streamed, 2097152 bytes>'`.
enum CurlCommand {
    static func make(for request: URLRequest, privacy: LogPrivacy) -> String {
        var arguments = ["curl"]
        let method = request.httpMethod ?? "GET"
        switch method {
        case "GET": break
        case "HEAD": arguments.append("--head")
        default: arguments += ["-X", quoted(method)]
        }
        arguments.append(quoted(privacy.redact(url: request.url)))
        let headers = privacy.redact(headers: request.allHTTPHeaderFields ?? [:])
        for name in headers.keys.sorted(by: { $0.lowercased() < $1.lowercased() }) {
            arguments += ["-H", quoted("\(name): \(headers[name] ?? "")")]
        }
        if let body = bodyArgument(for: request, privacy: privacy) {
            arguments += ["--data-binary", quoted(body)]
        }
        return arguments.joined(separator: " ")
    }

    /// The `--data-binary` argument: the text, or a placeholder; `nil` without a body.
    private static func bodyArgument(for request: URLRequest, privacy: LogPrivacy) -> String? {
        if let body = request.httpBody {
            if privacy.revealsBodies, let text = String(data: body, encoding: .utf8) {
                return text
            }
            return "@<request body: \(body.count) bytes, not logged>"
        }
        if request.hasBodyStream {
            let length = request.knownBodyLength
            return "@<request body: streamed, \(length.map { "\($0) bytes" } ?? "length unknown")>"
        }
        return nil
    }

    /// `text` as one shell word: as is when every character is literal to a POSIX shell,
    /// else in single quotes.
    static func quoted(_ text: String) -> String {
        let literal =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (Self.literalScalars.contains(scalar) || scalar.properties.isAlphabetic
                        || ("0"..."9").contains(scalar))
            }
        if literal { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private static let literalScalars = Set("-_./:=@%+,".unicodeScalars)
}
