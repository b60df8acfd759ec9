/// A transfer started by a ``Transport``.
///
/// APIKit calls ``cancel()`` when the request is cancelled. `URLSessionTask` conforms; a
/// transport built on another HTTP engine returns a handle of its own:
///
/// ```swift
/// struct EngineTask: TransportTask {
///     let transfer: EngineTransfer   // your engine's cancellable, Sendable handle
///
///     func cancel() { transfer.abort() }
/// }
/// ```
public protocol TransportTask: Sendable {
    /// Stops the transfer if it is still running; does nothing otherwise.
    func cancel()
}
