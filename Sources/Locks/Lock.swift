import Glibc

/// A mutex for the few values that threads share (libdbus's callbacks, the loop's queues, the state writer).
///
/// Foundation's `NSLock` would do, but the daemon links only FoundationEssentials (which has no locks): all of
/// Foundation, with ICU, was a third of its memory. Synchronization's `Mutex` hides its contended path from
/// ThreadSanitizer (see `Locked`).
public final class Lock: @unchecked Sendable {  // the pthread mutex is what makes sharing it safe
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable  // specialised where it is called, as it was when the lock lived in the module using it
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value behind a `Lock`: `withLock` hands it over for reading and changing.
///
/// Why not Synchronization's `Mutex`: on Linux its contended path takes the lock in the kernel (a priority-
/// inheriting futex), which ThreadSanitizer cannot see, so `make tsan` reported correctly locked values as
/// races. A pthread mutex it understands.
// @unchecked: `value` is only touched inside `withLock`, under the mutex.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    @usableFromInline let lock = Lock()

    public init(_ value: Value) { self.value = value }

    @inlinable
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
