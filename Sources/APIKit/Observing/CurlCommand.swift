/// Writes a `URLRequest` as a `curl` command line, redacted by a ``LogPrivacy``.
///
/// Every argument is shell-quoted (single quotes, `'` written as `'\''`) unless it holds only
/// characters a POSIX shell reads literally. Headers come sorted by name. The body is
/// `--data-raw` followed by the text when the privacy reveals bodies and the body is UTF-8 (sent
/// as written, a leading `@` included), and `--data-binary` followed by a placeholder naming its
/// size otherwise — `'@<request body: 12 bytes, not logged>'` or, for a streamed body,
/// `'@<request body: streamed, 2097152 bytes>'`, which curl refuses as a file it cannot read
/// rather than send another body. A `GET` with a body says `-X GET`: curl would send a `POST`.
/// A URL with `[`, `]`, `{` or `}` (an IPv6 address, a bracket in a query) comes after
/// `--globoff`, so that curl sends it as written instead of expanding it as a pattern. A word
/// starting with `=` is quoted: zsh would replace it with a command's path.
enum CurlCommand {
    static func make(for request: URLRequest, privacy: LogPrivacy) -> String {
        var arguments = ["curl"]
        let method = request.httpMethod ?? "GET"
        let body = bodyArgument(for: request, privacy: privacy)
        switch method {
        case "GET" where body == nil: break
        case "HEAD": arguments.append("--head")
        default: arguments += ["-X", quoted(method)]
        }
        let url = privacy.redact(url: request.url)
        if url.contains(where: { "[]{}".contains($0) }) { arguments.append("--globoff") }
        arguments.append(quoted(url))
        let headers = privacy.redact(headers: request.allHTTPHeaderFields ?? [:])
        for name in headers.keys.sorted(by: { $0.lowercased() < $1.lowercased() }) {
            arguments += ["-H", quoted("\(name): \(headers[name] ?? "")")]
        }
        if let body {
            arguments += [body.revealed ? "--data-raw" : "--data-binary", quoted(body.text)]
        }
        return arguments.joined(separator: " ")
    }

    /// The body's argument: the text, revealed, or a placeholder; `nil` without a body.
    private static func bodyArgument(for request: URLRequest, privacy: LogPrivacy) -> (text: String, revealed: Bool)? {
        if let body = request.httpBody {
            if privacy.revealsBodies, let text = String(data: body, encoding: .utf8) {
                return (text, true)
            }
            return ("@<request body: \(body.count) bytes, not logged>", false)
        }
        if request.hasBodyStream {
            let length = request.knownBodyLength
            return ("@<request body: streamed, \(length.map { "\($0) bytes" } ?? "length unknown")>", false)
        }
        return nil
    }

    /// `text` as one shell word: as is when every character is literal to a POSIX shell,
    /// else in single quotes.
    static func quoted(_ text: String) -> String {
        let literal =
            !text.isEmpty && !text.hasPrefix("=")
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
