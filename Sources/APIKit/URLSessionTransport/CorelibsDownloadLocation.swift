#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where corelibs Foundation (Linux, Windows) writes the body of a `URLSessionDownloadTask`
/// while it arrives, so that the partial file of a transfer that fails or is cancelled can be
/// removed: corelibs leaves it in the system's temporary directory for good, and names it
/// nowhere public.
///
/// The file is the lazy `tempFileURL` of the task's protocol object (`_NativeProtocol`), created
/// by the first chunk written and never changed after. The protocol object is taken from the
/// task with `Mirror` as soon as `resume()` returns: corelibs creates it inside `resume()`
/// (download tasks skip the cache lookup that would defer it), under the task's own
/// `_protocolLock`, and lets go of it when the task ends — which, for a transfer cancelled
/// right after its first chunk, can come before that chunk's `didWriteData` reaches the
/// delegate queue, so a look at that moment may find nothing. Holding the object from the
/// start, its file is read once the task has completed and nothing writes to it any more.
///
/// What this cannot reach: corelibs creates the (empty) file as the transfer starts, on the
/// task's work queue, and a transfer that fails at once — a refused connection — can end the
/// task and let go of the object before `resume()` has returned to its caller, when that thread
/// is preempted for long enough (seen 0 to 5 times in 400 refused downloads on a loaded 2-core
/// machine). That empty file stays, as it does for every failed download of a plain corelibs
/// `URLSession`. No public hook runs on the work queue between the object's creation and the
/// transfer's start: corelibs asks for a body through `needNewBodyStream`, but as a protocol
/// extension method, which a delegate cannot override; a delegate's download task creates no
/// file before the first chunk, but writes each chunk by opening and closing the file.
///
/// When corelibs does not have that shape (another version), the answer is `nil` and nothing is
/// removed; tests fail then. On Apple platforms `URLSession` removes its own files: always
/// `nil`.
struct CorelibsDownloadLocation: @unchecked Sendable {
    /// The task's protocol object; only its lazy file is read, after the task has completed.
    private let urlProtocol: AnyObject

    /// The protocol object of `task`, which has just been resumed; `nil` when it cannot be found.
    init?(resumed task: URLSessionDownloadTask) {
        #if canImport(FoundationNetworking)
            guard let lock = Self.field("_protocolLock", of: task) as? NSLock else { return nil }
            let urlProtocol: AnyObject? = lock.withLock {
                guard let storage = Self.field("_protocolStorage", of: task) else { return nil }
                // `case existing(URLProtocol)`: the one child of the enum's mirror
                return Mirror(reflecting: storage).children.first.map { $0.value as AnyObject }
            }
            guard let urlProtocol, urlProtocol is URLProtocol else { return nil }
            self.urlProtocol = urlProtocol
        #else
            return nil
        #endif
    }

    /// The file the body was written to, or `nil` when nothing was written; read only once the
    /// task has completed.
    var file: URL? {
        Self.field("$__lazy_storage_$_tempFileURL", of: urlProtocol).flatMap { $0 as? URL? } ?? nil
    }

    /// The stored property `label` of `object`, looked up in its class and its superclasses.
    private static func field(_ label: String, of object: AnyObject) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == label }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }
}
