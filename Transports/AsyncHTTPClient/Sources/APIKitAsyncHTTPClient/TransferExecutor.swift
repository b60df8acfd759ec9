import Dispatch

/// Where the transfers of ``AsyncHTTPClientTransport`` run: Dispatch's threads, not Swift's
/// cooperative pool.
///
/// A process that keeps the cooperative pool busy — CPU-bound work in `async` functions, a
/// blocking call in a task — would otherwise hold a transfer back before it is even sent and
/// leave the bytes that arrived unread, while its timeouts run on: failures the network did
/// not cause. URLSession runs its transfers on threads of its own for the same reason, and calls
/// back on a Dispatch queue; so does this transport (the completion and the stream's events are
/// called from a Dispatch thread).
///
/// The queue is concurrent: one transfer's jobs still run one at a time (a task never runs
/// concurrently with itself), different transfers' in parallel.
final class TransferExecutor: TaskExecutor {
    /// The executor every transport's transfers prefer.
    static let shared = TransferExecutor()

    private let queue = DispatchQueue(label: "APIKitAsyncHTTPClient.transfers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }
}
