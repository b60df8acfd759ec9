public import APIKit
import APIKitTestSupport
import Foundation

/// Records the text a session's ``RequestLogger`` writes, and reads it back into its parts:
/// the unit tests and the integration suite (over both transports) check the lines a session
/// logs with public API only.
///
/// ```swift
/// let lines = LogLines()
/// let session = Session(transport: stub, logger: lines.logger())
/// _ = try await TextRequest().response(using: session)
/// #expect(lines.responses.map(\.status) == [200])
/// ```
public final class LogLines: Sendable {
    private let texts = Protected<[String]>([])
    private let responseTexts = CompletionProbe<String>()

    /// An empty record.
    public init() {}

    /// A logger that records what it is given, showing what `privacy` allows.
    ///
    /// - Parameter privacy: What the lines may show; nothing secret by default.
    public func logger(_ privacy: LogPrivacy = LogPrivacy()) -> RequestLogger {
        RequestLogger(privacy: privacy) { [texts, responseTexts] text in
            texts.append(text)
            if text.hasPrefix(LoggedResponseLine.prefix) { responseTexts.record(text) }
        }
    }

    /// Every text logged, in order: one for each request (its line and its curl command, joined
    /// by a newline) and one for each response.
    public var all: [String] { texts.value }

    /// The requests logged, read back; a text that does not read as one is left out.
    public var requests: [LoggedRequestLine] { all.compactMap(LoggedRequestLine.init) }

    /// The responses and failures logged, read back; a text that does not read as one is left out.
    public var responses: [LoggedResponseLine] { all.compactMap(LoggedResponseLine.init) }

    /// The first response or failure logged, waiting for it (within 120 s); `nil` if none came.
    public func firstResponse() async -> LoggedResponseLine? {
        await responseTexts.first().flatMap(LoggedResponseLine.init)
    }
}

/// A request's text as a ``RequestLogger`` writes it, read back:
/// `→ #id METHOD url (RequestType)`, a newline, and the curl command.
public struct LoggedRequestLine: Sendable, Hashable {
    static let prefix = "→ #"

    /// The whole text: the line and the curl command.
    public let text: String
    /// The number that pairs the request with its response.
    public let id: Int
    /// The HTTP method.
    public let method: String
    /// The URL, redacted.
    public let url: String
    /// The request type's name.
    public let requestType: String
    /// The curl command, the text's second line.
    public let curlCommand: String

    /// The first line: `→ #id METHOD url (RequestType)`.
    public var line: String { "→ #\(id) \(method) \(url) (\(requestType))" }

    /// `text` read back; `nil` when it is not a request's text.
    ///
    /// - Parameter text: What the logger was given.
    public init?(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard text.hasPrefix(Self.prefix), lines.count == 2 else { return nil }
        let words = lines[0].dropFirst(Self.prefix.count).split(separator: " ", maxSplits: 3)
        guard words.count == 4, let id = Int(words[0]), let requestType = Self.unwrapped(words[3]) else {
            return nil
        }
        self.text = text
        self.id = id
        method = String(words[1])
        url = String(words[2])
        self.requestType = requestType
        curlCommand = String(lines[1])
    }

    /// `(name)` without its parentheses.
    static func unwrapped(_ word: Substring) -> String? {
        guard word.hasPrefix("("), word.hasSuffix(")"), word.count >= 2 else { return nil }
        return String(word.dropFirst().dropLast())
    }
}

/// A response's line as a ``RequestLogger`` writes it, read back:
/// `← #id 200 METHOD url (RequestType) 0.123 s, 456 bytes` (or `body not read`), or
/// `← #id failed METHOD url (RequestType) 0.123 s: URLError -1001`.
public struct LoggedResponseLine: Sendable, Hashable {
    static let prefix = "← #"

    /// The whole line.
    public let text: String
    /// The number of the request this answers.
    public let id: Int
    /// The HTTP status; `nil` for a failure or a response that is not HTTP (`-`).
    public let status: Int?
    /// The HTTP method of the request.
    public let method: String
    /// The URL of the request, redacted.
    public let url: String
    /// The request type's name.
    public let requestType: String
    /// The seconds between the request and this answer, as written (three decimals).
    public let elapsed: Double
    /// The body's byte count; `nil` for a failure or a body not read.
    public let bodySize: Int?
    /// Whether the line says `body not read`.
    public let bodyNotRead: Bool
    /// The error that stopped the transfer, such as `URLError -1001`; `nil` when a response came.
    public let error: String?

    /// `text` read back; `nil` when it is not a response's line.
    ///
    /// - Parameter text: What the logger was given.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), !text.contains("\n") else { return nil }
        let words = text.dropFirst(Self.prefix.count).split(separator: " ", maxSplits: 4)
        guard words.count == 5, let id = Int(words[0]) else { return nil }
        let failed = words[1] == "failed"
        // `(RequestType) 0.123 s, 456 bytes` or `(RequestType) 0.123 s: URLError -1001`
        guard let time = words[4].range(of: failed ? " s: " : " s, "),
            let space = words[4][..<time.lowerBound].lastIndex(of: " "),
            let requestType = LoggedRequestLine.unwrapped(words[4][..<space]),
            let elapsed = Double(words[4][words[4].index(after: space)..<time.lowerBound])
        else { return nil }
        let tail = String(words[4][time.upperBound...])
        self.text = text
        self.id = id
        status = Int(words[1])
        method = String(words[2])
        url = String(words[3])
        self.requestType = requestType
        self.elapsed = elapsed
        if failed {
            error = tail
            bodySize = nil
            bodyNotRead = false
        } else {
            error = nil
            bodyNotRead = tail == "body not read"
            if bodyNotRead {
                bodySize = nil
            } else {
                guard tail.hasSuffix(" bytes"), let size = Int(tail.dropLast(" bytes".count)) else { return nil }
                bodySize = size
            }
        }
    }

    /// Whether this answers `request`: the same number, method, URL and type.
    ///
    /// - Parameter request: A request line logged before.
    public func answers(_ request: LoggedRequestLine) -> Bool {
        id == request.id && method == request.method && url == request.url && requestType == request.requestType
    }
}
