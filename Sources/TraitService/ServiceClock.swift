import DBus

/// The clock the service's timers run on (each transition's adapter deadline): the connection's own timers, or
/// a virtual clock that moves only when a client advances it (`traitd --clock virtual`, `AdvanceClock`), so that
/// a test of a missed deadline waits for no wall-clock time and sees it pass at exactly its instant.
///
/// Used on the connection's thread only (the service's executor): timers are scheduled there, and a virtual
/// timer's work runs there, inside `advance`, before `AdvanceClock` replies.
// @unchecked: touched on the connection's thread only.
final class ServiceClock: @unchecked Sendable {
    enum Kind: Sendable { case real, virtual }

    let kind: Kind
    private let connection: Connection
    /// The virtual clock's time, in milliseconds since traitd started.
    private(set) var now: UInt64 = 0
    /// The latest time the virtual clock reaches, about 285,000 years: `AdvanceClock` past it is refused, so that
    /// no time and no due time (now plus a deadline, itself bounded by the config) overflows 64 bits.
    static let latest: UInt64 = 1 << 53
    /// The virtual timers not fired yet: due time, then the order they were scheduled in.
    private var timers: [(due: UInt64, id: UInt64, work: @Sendable () -> Void)] = []
    private var nextID: UInt64 = 1
    /// Transition id -> the timer of its deadline, while it runs.
    private var deadlines: [UInt64: UInt64] = [:]

    init(_ kind: Kind, connection: Connection) {
        self.kind = kind
        self.connection = connection
    }

    /// Runs `work` once, `seconds` from now on this clock; returns an id for `cancel`.
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        switch kind {
        case .real:
            return connection.schedule(after: seconds, work)
        case .virtual:
            defer { nextID += 1 }
            // A deadline is at most `Limits`' bound (the config checks it); one past the clock's end falls due at
            // it, so that an advance to the end fires it (beyond, it could never fire).
            let delay = (seconds * 1000).rounded()
            let due = delay.isFinite && delay < Double(Self.latest) ? min(now + UInt64(max(0, delay)), Self.latest) : Self.latest
            timers.append((due, nextID, work))
            return nextID
        }
    }

    /// Starts the deadline of transition `transition`: `work` runs `seconds` from now unless `endDeadline` comes first.
    func startDeadline(of transition: UInt64, after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        deadlines[transition] = schedule(after: seconds) { [weak self] in
            self?.deadlines[transition] = nil
            work()
        }
    }

    /// The transition completed: its deadline no longer matters.
    func endDeadline(of transition: UInt64) {
        if let timer = deadlines.removeValue(forKey: transition) { cancel(timer) }
    }

    func cancel(_ id: UInt64) {
        switch kind {
        case .real: connection.cancel(timer: id)
        case .virtual: timers.removeAll { $0.id == id }
        }
    }

    /// Moves the virtual clock `milliseconds` forward: every timer due by then fires, in time order (one that a
    /// firing schedules within the span fires too), the clock standing at each one's instant while it runs.
    /// Returns the new time. Nil, and nothing moves, when that would pass `latest`.
    func advance(by milliseconds: UInt64) -> UInt64? {
        guard milliseconds <= Self.latest - now else { return nil }
        let end = now + milliseconds
        while let next = timers.enumerated().min(by: { ($0.element.due, $0.element.id) < ($1.element.due, $1.element.id) }),
              next.element.due <= end {
            timers.remove(at: next.offset)
            now = max(now, next.element.due)
            next.element.work()
        }
        now = end
        return now
    }
}
