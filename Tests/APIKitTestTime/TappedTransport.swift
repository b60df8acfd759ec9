public import APIKit
import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A transport that passes everything to `base` and shows `tap` each event of a streamed
/// transfer once `base` has delivered it: a stream's, or a download's, which a transport without
/// a download of its own streams into its file.
///
/// ```swift
/// let heads = CompletionProbe<Void>()
/// let transport = TappedTransport(base: StubTransport { _ in .success(body: "ok") }) { event in
///     if case .response = event { heads.record(()) }
/// }
/// ```
public struct TappedTransport: Transport {
    /// The transport that does the work.
    public let base: any Transport
    /// Sees each stream event, after it was delivered.
    public let tap: @Sendable (TransportStreamEvent) -> Void

    /// A transport over `base` whose stream events `tap` sees.
    public init(base: any Transport, tap: @escaping @Sendable (TransportStreamEvent) -> Void) {
        self.base = base
        self.tap = tap
    }

    /// Sends through `base`, untouched.
    public func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        base.send(request, progress: progress, completion: completion)
    }

    /// Streams through `base`, showing `tap` each event once it was delivered.
    public func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        base.stream(request) { [tap] event in
            onEvent(event)
            tap(event)
        }
    }
}
