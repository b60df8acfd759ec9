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
}
