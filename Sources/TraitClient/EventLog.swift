import DBus
import Foundation
import TraitProtocol

/// Every signal of the daemon, decoded and kept in the order it came: what a test or a scenario reads back.
///
/// Unlike a stream, the log already holds everything received when you look: the daemon sends a command's
/// signals before its reply, and one connection delivers messages in order, so once a call has returned, the
/// signals the daemon sent before replying are in the log. Waits are event-driven (no polling).
// @unchecked: `events` and `waiters` are read and written under `lock` only.
public final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [TraitEvent] = []
    private var waiters: [(id: UUID, condition: @Sendable ([TraitEvent]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// Ends the subscription (``close()``).
    var unsubscribe: (@Sendable () -> Void)?

    init() {}

    /// Stops logging: the subscription ends.
    public func close() { lock.withLock { unsubscribe }?() }

    /// Everything logged since the last `take()`, in order; the log is empty after it.
    public func take() -> [TraitEvent] {
        lock.withLock {
            defer { events.removeAll() }
            return events
        }
    }

    /// Returns once `condition` holds for the events logged since the last `take()` (at once if it holds now), or
    /// when the task is cancelled.
    public func wait(until condition: @escaping @Sendable ([TraitEvent]) -> Bool) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = lock.withLock { () -> Bool in
                    if condition(events) || Task.isCancelled { return true }
                    waiters.append((id, condition, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { () -> CheckedContinuation<Void, Never>? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index).continuation
            }?.resume()
        }
    }

    func append(_ event: TraitEvent) {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            events.append(event)
            let (done, waiting) = (waiters.filter { $0.condition(events) }, waiters.filter { !$0.condition(events) })
            waiters = waiting
            return done.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}

extension TraitClient {
    /// A log of every signal of the daemon from now on (see ``EventLog``). Each signal is logged on the
    /// connection's thread as it is dispatched, before any reply that came after it: that is the guarantee.
    public func eventLog() async throws -> EventLog {
        let log = EventLog()
        let id = try await subscribe(of: nil, interface: nil) { log.append(TraitEvent($0)) }
        log.unsubscribe = { [connection] in connection.unsubscribe(id) }
        return log
    }
}
