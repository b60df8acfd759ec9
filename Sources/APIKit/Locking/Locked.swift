#if canImport(Darwin)
    import os
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A value guarded by a lock.
///
/// The value and the lock live in one heap object (a `ManagedBuffer`: the value as its header,
/// the lock as its one element): a `Locked` costs one allocation, where an `NSLock` beside the
/// value would cost three (the box, the `NSLock`, and on Linux the `NSLock`'s mutex).
///
/// A struct holding a reference: copies share the value and the lock, as the class it
/// replaced did. `@unchecked Sendable` is safe because the value is only reached through
/// ``withLock(_:)``, which holds the lock for the whole access.
struct Locked<Value>: @unchecked Sendable {
    private let storage: LockedStorage<Value>

    init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            LockPrimitive.lock(lock)
            defer { LockPrimitive.unlock(lock) }
            return try body(&value.pointee)
        }
    }
}

/// The heap object of a ``Locked``: the value, then the lock at a stable address.
private final class LockedStorage<Value>: ManagedBuffer<Value, LockPrimitive.Lock> {
    static func make(_ value: Value) -> LockedStorage {
        let buffer = create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { LockPrimitive.initialize($0) }
        // `create` is declared to return `ManagedBuffer`; it makes an instance of `Self`.
        return unsafeDowncast(buffer, to: LockedStorage.self)
    }

    // `ManagedBuffer` destroys the header (the value) itself; the element is ours.
    deinit {
        withUnsafeMutablePointerToElements { LockPrimitive.destroy($0) }
    }
}

/// The platform's plain mutex, used in place (never moved once initialized).
private enum LockPrimitive {
    #if canImport(Darwin)
        typealias Lock = os_unfair_lock

        static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
            lock.initialize(to: os_unfair_lock())
        }

        static func destroy(_ lock: UnsafeMutablePointer<Lock>) {
            lock.deinitialize(count: 1)
        }

        static func lock(_ lock: UnsafeMutablePointer<Lock>) {
            os_unfair_lock_lock(lock)
        }

        static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
            os_unfair_lock_unlock(lock)
        }
    #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
        typealias Lock = pthread_mutex_t

        static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
            lock.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(lock, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        }

        static func destroy(_ lock: UnsafeMutablePointer<Lock>) {
            pthread_mutex_destroy(lock)
            lock.deinitialize(count: 1)
        }

        static func lock(_ lock: UnsafeMutablePointer<Lock>) {
            let result = pthread_mutex_lock(lock)
            precondition(result == 0, "pthread_mutex_lock failed: \(result)")
        }

        static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
            let result = pthread_mutex_unlock(lock)
            precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
        }
    #else
        typealias Lock = NSLock

        static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
            lock.initialize(to: NSLock())
        }

        static func destroy(_ lock: UnsafeMutablePointer<Lock>) {
            lock.deinitialize(count: 1)
        }

        static func lock(_ lock: UnsafeMutablePointer<Lock>) {
            lock.pointee.lock()
        }

        static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
            lock.pointee.unlock()
        }
    #endif
}
