import Foundation

/// When and how often ``ResponseStream/serverSentEvents(reconnecting:)`` reconnects.
///
/// The wait before a reconnection is the reconnection time of the WHATWG EventSource model:
/// the latest `retry` field the server sent, on any connection, and ``initialDelay`` until it
/// sends one.
///
/// ```swift
/// let policy = ServerSentEventReconnection(maximumAttempts: 5, initialDelay: 1)
/// for try await event in EventsRequest().stream(using: session).serverSentEvents(reconnecting: policy) {
///     print(event.data)
/// }
/// ```
public struct ServerSentEventReconnection: Sendable, Hashable {
    /// The delay used when none is given: 3 seconds, as browsers use.
    @usableFromInline static let defaultInitialDelay: TimeInterval = 3

    /// The most connections in a row, the first one included, that may end without delivering
    /// an event; when the last of them ends, the sequence ends instead of reconnecting. A
    /// connection that delivers an event resets the count. At least 1.
    public var maximumAttempts: Int

    /// Seconds to wait before reconnecting until the server sets a reconnection time with a
    /// `retry` field. At least 0.
    public var initialDelay: TimeInterval

    /// Creates a reconnection policy.
    ///
    /// ```swift
    /// let patient = ServerSentEventReconnection(maximumAttempts: 20)
    /// ```
    ///
    /// - Parameters:
    ///   - maximumAttempts: The most connections in a row that may end without an event before
    ///     the sequence gives up; 5 by default. A value below 1 is taken as 1.
    ///   - initialDelay: Seconds to wait before reconnecting until the server sends `retry`;
    ///     3 seconds by default. A negative value is taken as 0.
    public init(maximumAttempts: Int = 5, initialDelay: TimeInterval = defaultInitialDelay) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = max(0, initialDelay)
    }
}
