import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Whether `other` is this very value: the same bytes, which for a `URLRequest` means the
    /// same storage — any change copies the storage first, while the original holds it.
    ///
    /// How a hook that returned the request it was given, unchanged, is told apart cheaply
    /// (reading the header fields to check them again costs more than building a small
    /// request's whole query). Two equal requests made apart are not identical; this answers
    /// only "nothing changed", never "something changed".
    func isIdentical(to other: URLRequest) -> Bool {
        withUnsafeBytes(of: self) { own in
            withUnsafeBytes(of: other) { own.elementsEqual($0) }
        }
    }

    /// The first header of this request that frames the message (Content-Length,
    /// Transfer-Encoding and the others of ``HTTPSyntax/framingHeaderNames``), which only the
    /// transport may set; `nil` when it has none.
    ///
    /// - Parameter original: The request a hook was given, when this request is what the hook
    ///   returned. A hook that returned it unchanged added no header, and its headers are not
    ///   read back: they were checked before the hook ran.
    func firstFramingHeader(addedTo original: URLRequest? = nil) -> String? {
        if let original, isIdentical(to: original) { return nil }
        return HTTPSyntax.firstFramingHeader(in: allHTTPHeaderFields)
    }
}
