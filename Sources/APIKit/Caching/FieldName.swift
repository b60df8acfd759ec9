/// Compares header field names the way Foundation does, without Foundation for the ASCII names
/// HTTP uses (RFC 9110 §5.1: a field name is a token).
///
/// Two ASCII names are the same name when their bytes are equal but for the case of letters,
/// which is what both of Foundation's rules say for them. A name with any other byte is left to
/// the rule of the type it comes from, so that the answer is always the one Foundation gives:
/// `caseInsensitiveCompare` for a response's fields (`HTTPURLResponse` and the stored head),
/// `lowercased()` for a request's (`URLRequest.value(forHTTPHeaderField:)`).
enum FieldName {
    /// Whether `a` and `b` name the same response field (`caseInsensitiveCompare`).
    static func same(_ a: String, _ b: String) -> Bool {
        asciiSame(a, b) ?? (a.caseInsensitiveCompare(b) == .orderedSame)
    }

    /// Whether `a` and `b` name the same request field, as `URLRequest` compares them.
    static func sameInRequest(_ a: String, _ b: String) -> Bool {
        asciiSame(a, b) ?? (a.lowercased() == b.lowercased())
    }

    /// The answer for two ASCII names; `nil` when either holds a byte that is not ASCII.
    private static func asciiSame(_ a: String, _ b: String) -> Bool? {
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in asciiSame(x, y) } }
    }

    private static func asciiSame(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard x.count == y.count else {
            // Names of different lengths are the same name only by a rule beyond ASCII.
            var union: UInt8 = 0
            for byte in x { union |= byte }
            for byte in y { union |= byte }
            return union < 0x80 ? false : nil
        }
        var same = true
        var union: UInt8 = 0
        for index in 0..<x.count {
            let p = x[index]
            let q = y[index]
            union |= p | q
            if p != q {
                let folded = p | 0x20
                if folded != q | 0x20 || folded < 0x61 || folded > 0x7A { same = false }
            }
        }
        return union < 0x80 ? same : nil
    }
}

/// A request's header fields, read once: what `URLRequest.value(forHTTPHeaderField:)` answers,
/// without lowercasing every name at every look-up.
struct RequestFields {
    private let fields: [String: String]

    init(_ request: URLRequest) {
        fields = request.allHTTPHeaderFields ?? [:]
    }

    /// The value of the field `name`: of the fields whose names are `name` in another case, the
    /// first in the dictionary's order, as `URLRequest` picks.
    func value(_ name: String) -> String? {
        for (key, value) in fields where FieldName.sameInRequest(key, name) { return value }
        return nil
    }

    /// Whether the request has one of ``HTTPCache/conditionalHeaders``: it is the caller's own
    /// conditional or partial request. One pass over the fields; only a name that starts as one
    /// of those (`I` or `R`, in either case) is compared.
    var hasConditional: Bool {
        fields.keys.contains { name in
            guard let first = name.utf8.first.map({ $0 | 0x20 }),
                first == UInt8(ascii: "i") || first == UInt8(ascii: "r")
            else { return false }
            return HTTPCache.conditionalHeaders.contains { FieldName.sameInRequest(name, $0) }
        }
    }
}
