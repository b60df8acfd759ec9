#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where corelibs Foundation (Linux, Windows) writes the body of a `URLSessionDownloadTask`
/// while it arrives, so that the partial file of a transfer that fails or is cancelled can be
/// removed: corelibs leaves it in the system's temporary directory for good, and names it
/// nowhere public.
///
/// The file is the lazy `tempFileURL` of the task's protocol object (`_NativeProtocol`), created
/// when the first chunk arrives and never changed after. It is read with `Mirror`, at the first
/// `didWriteData` — after that chunk was written, so the lazy value is set — and the task's
/// protocol is read under the task's own `_protocolLock`, which guards it. When corelibs does not
/// have that shape (another version), or the task has already let go of its protocol, the
/// answer is `nil` and nothing is removed. On Apple platforms `URLSession` removes its own
/// files: always `nil`.
enum CorelibsDownloadLocation {
    /// The file corelibs writes `task`'s body to, or `nil` when it cannot be found.
    static func location(of task: URLSessionDownloadTask) -> URL? {
        #if canImport(FoundationNetworking)
            guard let lock = field("_protocolLock", of: task) as? NSLock else { return nil }
            let urlProtocol: AnyObject? = lock.withLock {
                guard let storage = field("_protocolStorage", of: task) else { return nil }
                // `case existing(URLProtocol)`: the one child of the enum's mirror
                return Mirror(reflecting: storage).children.first.map { $0.value as AnyObject }
            }
            guard let urlProtocol, urlProtocol is URLProtocol else { return nil }
            return field("$__lazy_storage_$_tempFileURL", of: urlProtocol).flatMap { $0 as? URL? } ?? nil
        #else
            return nil
        #endif
    }

    #if canImport(FoundationNetworking)
        /// The stored property `label` of `object`, looked up in its class and its superclasses.
        private static func field(_ label: String, of object: AnyObject) -> Any? {
            var mirror: Mirror? = Mirror(reflecting: object)
            while let current = mirror {
                if let child = current.children.first(where: { $0.label == label }) { return child.value }
                mirror = current.superclassMirror
            }
            return nil
        }
    #endif
}
