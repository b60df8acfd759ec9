/// Why a ``ResponseStream`` stopped a transfer of its own accord, carried by
/// ``RequestError/transportFailed(_:context:)``.
///
/// ```swift
/// do {
///     for try await chunk in request.stream(using: session, maximumBufferSize: 1 << 20) { await slowly(chunk) }
/// } catch {
///     if case .bufferLimitExceeded(let limit)? = error.underlyingError as? ResponseStreamError {
///         print("fell behind by more than \(limit) bytes")
///     }
/// }
/// ```
public enum ResponseStreamError: Error, Sendable, Hashable {
    /// The consumer fell behind: the chunks waiting for it would have taken more than `limit`
    /// bytes, so the transfer was cancelled (see ``ResponseStream``).
    case bufferLimitExceeded(limit: Int)
}

extension ResponseStreamError: LocalizedError, CustomStringConvertible {
    /// The same text as ``description``.
    public var errorDescription: String? {
        description
    }

    /// What happened, for example `the stream's consumer fell behind by more than 8388608
    /// bytes (its buffer limit); the transfer was cancelled`.
    public var description: String {
        switch self {
        case .bufferLimitExceeded(let limit):
            "the stream's consumer fell behind by more than \(limit) bytes (its buffer limit); the transfer was cancelled"
        }
    }
}
