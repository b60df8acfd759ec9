/// Makes the boundary that separates the parts of a multipart body.
///
/// A boundary is `APIKit-` and 32 characters drawn at random from `A-Z a-z 0-9` (about 190
/// bits of randomness). RFC 2046 requires that it not occur in any part: the writer checks
/// every part held in memory and draws again on a match. The contents of a file on disk are
/// not read twice to check; that a file holds a given 190-bit random string is as unlikely as
/// guessing it, which is the same argument browsers rely on.
enum MultipartBoundary {
    /// Replaces the random boundary: the writer calls it for each candidate until one does not
    /// occur in the parts, so it must eventually return such a one. A test seam
    /// (`@testable import`), scoped to the task that binds it.
    @TaskLocal static var generator: (@Sendable () -> String)?

    /// A new candidate boundary.
    static func make() -> String {
        if let generator { return generator() }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var bytes = Array("APIKit-".utf8)
        for _ in 0..<32 {
            bytes.append(alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
