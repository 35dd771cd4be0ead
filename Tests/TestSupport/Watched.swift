import Dispatch
import Foundation

/// A value that other threads change (a process's output and exit, the signals a recorder saw), and tasks that
/// wait until it satisfies a condition.
///
/// Waiting is event-driven: a waiter is resumed by the `update` that makes its condition true, never by a poll,
/// so no task sleeps on Swift's cooperative pool and a busy machine only delays the event, not the check. The one
/// deadline is a generous overall timeout, scaled by `TestTiming.scale`, that turns a hang into a failure.
// @unchecked: `value` and `waiters` are read and written under `lock` only.
public final class Watched<Value: Sendable>: @unchecked Sendable {
    private struct Waiter {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Value?, Never>
    }

    private let lock = NSLock()
    private var value: Value
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0
    /// Waiters cancelled before they were in place.
    private var cancelled: Set<UInt64> = []

    public init(_ value: Value) { self.value = value }

    /// The value now.
    public var current: Value { lock.withLock { value } }

    /// Changes the value and resumes every waiter whose condition now holds.
    ///
    /// Conditions are checked outside the lock, so a condition may read this value (or anything else) freely.
    public func update(_ change: (inout Value) -> Void) {
        let (now, waiting) = lock.withLock {
            change(&value)
            return (value, waiters)
        }
        let holds = waiting.filter { $0.value.condition(now) }.keys
        guard !holds.isEmpty else { return }
        // A waiter another update resumed (or a timeout expired) meanwhile is no longer there to take.
        let ready = lock.withLock { holds.compactMap { waiters.removeValue(forKey: $0) } }
        for waiter in ready { waiter.continuation.resume(returning: now) }
    }

    /// Waits until `condition` holds and returns the value then; nil when `timeout` seconds (times
    /// `TestTiming.scale`) pass first, or when the waiting task is cancelled (a task group racing two events).
    public func wait(timeout: Double, until condition: @escaping @Sendable (Value) -> Bool) async -> Value? {
        let id: UInt64 = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // In place first, then checked: an update in between resumes it or finds it gone, never misses it.
                let cancelledAlready: Bool = lock.withLock {
                    if cancelled.remove(id) != nil { return true }
                    waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if cancelledAlready {
                    continuation.resume(returning: nil)
                    return
                }
                let now = current
                if condition(now) {
                    // Only one of this check and a concurrent update takes the waiter out, and resumes it.
                    if let waiter = lock.withLock({ waiters.removeValue(forKey: id) }) { waiter.continuation.resume(returning: now) }
                    return
                }
                // The timeout runs on Dispatch's own queue, not the cooperative pool, and only resumes the waiter.
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout * TestTiming.scale) { [self] in
                    expire(id)
                }
            }
        } onCancel: {
            expire(id, cancelling: true)
        }
    }

    /// Resumes waiter `id` with nil; a cancellation that comes before the waiter is in place is remembered.
    private func expire(_ id: UInt64, cancelling: Bool = false) {
        let waiter: Waiter? = lock.withLock {
            let waiter = waiters.removeValue(forKey: id)
            if waiter == nil, cancelling { cancelled.insert(id) }
            return waiter
        }
        waiter?.continuation.resume(returning: nil)
    }
}
