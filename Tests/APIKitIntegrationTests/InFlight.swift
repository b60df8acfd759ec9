import APIKit
import APIKitTestSupport
import Testing

/// The completion handler was not called in time.
struct CompletionTimedOut: Error, CustomStringConvertible {
    var seconds: TimeInterval
    var description: String { "the completion handler was not called within \(seconds) s" }
}

/// A request started with ``start(_:session:completionQueue:)``.
struct InFlight<Response: Sendable>: Sendable {
    let handle: RequestHandle
    let recorder: CompletionProbe<Result<Response, RequestError>>
    let started: ContinuousClock.Instant

    /// The outcome passed to the completion handler (the first one, if it was called more than once).
    func result(timeout: TimeInterval = 120) async throws -> Result<Response, RequestError> {
        guard let result = await recorder.first(timeout: timeout) else {
            throw CompletionTimedOut(seconds: timeout)
        }
        return result
    }

    /// How many times the completion handler has been called so far.
    var completionCount: Int { recorder.count }

    /// Waits until nothing holds the completion handler any more (the transport and the
    /// pipeline are done with it), at most `timeout` seconds: from then on
    /// ``completionCount`` is final. `false` when it was still held.
    func released(timeout: TimeInterval = 120) async -> Bool {
        await recorder.released(timeout: timeout)
    }
}

/// Performs `request` through `transport` (``TestTransport/shared`` by default) and returns at
/// once; the completion is recorded.
@discardableResult
func start<R: Request>(
    _ request: R,
    transport: any Transport = TestTransport.shared,
    completionQueue: DispatchQueue = .global()
) -> InFlight<R.Response> where R.Response: Sendable {
    let recorder = CompletionProbe<Result<R.Response, RequestError>>()
    let started = ContinuousClock.now
    let session = Session(transport: transport, completionQueue: completionQueue)
    let handle = request.perform(using: session, completion: recorder.handler)
    return InFlight(handle: handle, recorder: recorder, started: started)
}

/// Performs `request` and bridges its completion to `async`, failing (by throwing)
/// when no completion arrives within `timeout` seconds.
func perform<R: Request>(
    _ request: R,
    transport: any Transport = TestTransport.shared,
    completionQueue: DispatchQueue = .global(),
    timeout: TimeInterval = 100
) async throws -> Result<R.Response, RequestError> where R.Response: Sendable {
    try await start(request, transport: transport, completionQueue: completionQueue).result(timeout: timeout)
}

extension Result {
    /// The error, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Waits `seconds` without blocking a thread.
func pause(_ seconds: Double) async {
    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}
