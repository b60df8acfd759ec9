/// The directives of a `Cache-Control` field (RFC 9111 §5.2) that the cache acts on, read from
/// a request or a response.
///
/// Reading is tolerant, as §4.2.1 and §5.2 ask of a cache: directive names are compared
/// case-insensitively; an argument may be a token or a quoted string (`max-age="60"` reads as
/// `max-age=60`); several field lines and comma lists combine; of a directive given twice, the
/// first counts; unknown directives are ignored. An argument that is not delta-seconds (§1.2.2)
/// is read as the most restrictive meaning: a `max-age` that cannot be read is 0 (the response
/// is stale, the request wants a validated one), a `min-fresh` or a `max-stale` that cannot be
/// read is ignored (no staleness is accepted). delta-seconds too large to represent are 2^31,
/// as §1.2.2 says; they are `Int64`, not `Int`: 2^31 does not fit the 32-bit `Int` of watchOS.
struct CacheControl: Equatable {
    /// `max-age`, in seconds.
    var maxAge: Int64?
    /// `max-stale`: `.some(nil)` accepts any staleness, `.some(n)` at most `n` seconds.
    var maxStale: Int64??
    /// `min-fresh`, in seconds.
    var minFresh: Int64?
    var noCache = false
    var noStore = false
    var mustRevalidate = false
    var onlyIfCached = false
    var isPublic = false
    var isPrivate = false
    var mustUnderstand = false
    /// `stale-if-error` (RFC 5861 §4), in seconds; `nil` when absent or unreadable.
    var staleIfError: Int64?
    /// `stale-while-revalidate` (RFC 5861 §3), in seconds; `nil` when absent or unreadable.
    var staleWhileRevalidate: Int64?

    /// The largest delta-seconds value kept: 2^31 (RFC 9111 §1.2.2), which needs 64 bits.
    static let deltaSecondsLimit: Int64 = 2_147_483_648

    /// The directives of `value`, a field value that may hold several comma-separated
    /// directives (several field lines joined with commas read the same).
    init(_ value: String?) {
        guard let value else { return }
        var seen = Set<String>()
        for (name, argument) in Self.directives(in: value) where seen.insert(name).inserted {
            switch name {
            case "max-age": maxAge = argument.flatMap(Self.deltaSeconds) ?? 0
            case "max-stale":
                if let argument {
                    if let seconds = Self.deltaSeconds(argument) { maxStale = .some(seconds) }
                } else {
                    maxStale = .some(nil)
                }
            case "min-fresh": minFresh = argument.flatMap(Self.deltaSeconds)
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate": mustRevalidate = true
            case "only-if-cached": onlyIfCached = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "must-understand": mustUnderstand = true
            case "stale-if-error": staleIfError = argument.flatMap(Self.deltaSeconds)
            case "stale-while-revalidate": staleWhileRevalidate = argument.flatMap(Self.deltaSeconds)
            default: break
            }
        }
    }

    /// The `Cache-Control` of a request, with `Pragma: no-cache` read as `no-cache` when the
    /// request has no `Cache-Control` (RFC 9111 §5.4).
    init(request: URLRequest) {
        let fields = RequestFields(request)
        let value = fields.value("Cache-Control")
        self.init(value)
        if value == nil, let pragma = fields.value("Pragma"),
            Self.directives(in: pragma).contains(where: { $0.name == "no-cache" })
        {
            noCache = true
        }
    }

    /// Reads delta-seconds (§1.2.2): one or more ASCII digits, nothing else; a value above 2^31
    /// is 2^31. In 64 bits on every platform: 10 times the cap, before it is applied again,
    /// overflows a 32-bit `Int`.
    static func deltaSeconds(_ text: Substring) -> Int64? {
        guard !text.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = min(value * 10 + Int64(byte - 0x30), deltaSecondsLimit)
        }
        return value
    }

    /// The directives of a field value, in order: names lowercased, arguments unquoted.
    ///
    /// The value is read as the bytes RFC 9110 defines it by: a comma, a quote or a backslash
    /// delimits wherever it is, whatever follows it.
    static func directives(in value: String) -> [(name: String, argument: Substring?)] {
        var result: [(name: String, argument: Substring?)] = []
        for item in splitOutsideQuotes(Substring(value)) {
            let trimmed = item.trimmingOWS
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.utf8.firstIndex(of: UInt8(ascii: "=")) else {
                result.append((trimmed.lowercased(), nil))
                continue
            }
            let name = trimmed[..<equals].trimmingOWS.lowercased()
            guard !name.isEmpty else { continue }
            var argument = trimmed[trimmed.utf8.index(after: equals)...].trimmingOWS
            if argument.utf8.first == UInt8(ascii: "\"") {
                argument = unquoted(argument)
            }
            result.append((name, argument))
        }
        return result
    }

    /// Splits at commas that are not inside a quoted string.
    private static func splitOutsideQuotes(_ value: Substring) -> [Substring] {
        var parts: [Substring] = []
        let bytes = value.utf8
        var start = bytes.startIndex
        var inQuotes = false
        var escaped = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if escaped {
                escaped = false
            } else if inQuotes && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == UInt8(ascii: ","), !inQuotes {
                parts.append(value[start..<index])
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        parts.append(value[start...])
        return parts
    }

    /// The text of a quoted string (RFC 9110 §5.6.4), its quoted pairs unescaped; an
    /// unterminated one runs to the end.
    private static func unquoted(_ quoted: Substring) -> Substring {
        var text: [UInt8] = []
        var escaped = false
        for byte in quoted.utf8.dropFirst() {
            if escaped {
                text.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                break
            } else {
                text.append(byte)
            }
        }
        return Substring(String(decoding: text, as: UTF8.self))
    }
}

extension Substring {
    /// Without the optional whitespace (spaces and tabs) around it.
    var trimmingOWS: Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start != end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start != end {
            let last = bytes.index(before: end)
            guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
            end = last
        }
        return self[start..<end]
    }
}
