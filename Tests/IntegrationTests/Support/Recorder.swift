import DBus
import Foundation
import TestSupport
import TraitClient

/// Records every signal of the daemon on a connection of its own, for tests that look at what happened.
///
/// Each signal is recorded on the connection's thread as it is dispatched, before any later message (a reply
/// included): so once a call to the daemon has returned, every signal the daemon sent before answering it is
/// recorded (`clear` relies on it). Waits are event-driven: each recorded signal wakes the waiters whose
/// condition it completes.
final class Recorder: Sendable {
    let client: TraitClient
    /// What was recorded, and how many signals in all (`clear` empties the first, never the second).
    private struct Log: Sendable {
        var events: [TraitEvent] = []
        var count = 0
    }
    private let log = Watched(Log())

    init(_ fixture: DaemonFixture) async throws {
        client = try TraitClient(bus: .address(fixture.bus.address))
        _ = try await client.subscribe { [log] signal in
            let event = TraitEvent(signal)
            log.update {
                $0.events.append(event)
                $0.count += 1
            }
        }
    }

    var all: [TraitEvent] { log.current.events }

    /// Forgets what was recorded up to now, exactly: it asks the daemon for its state first, and the reply comes
    /// after every signal the daemon sent before it (the bus keeps one sender's messages in order), all of them
    /// recorded by then. (Emptying the log at once left out a signal of a command another client had waited
    /// for, such as `traitctl ... --wait`, still on its way here: it was then recorded after the clear.)
    func clear() async throws {
        _ = try await client.state()
        log.update { $0.events.removeAll() }
    }

    /// Waits until `condition` holds for what was recorded, and returns it; fails after `timeout` seconds
    /// (times `TestTiming.scale`) with what was seen.
    @discardableResult
    func wait(_ what: String, timeout: Double = 30, until condition: @escaping @Sendable ([TraitEvent]) -> Bool)
        async throws -> [TraitEvent] {
        guard let seen = await log.wait(timeout: timeout, until: { condition($0.events) }) else {
            throw TestFailure("timed out after \(timeout * TestTiming.scale) s waiting for \(what); saw:\n"
                + all.map(\.description).joined(separator: "\n"))
        }
        return seen.events
    }

    /// Waits until `check` holds, for what only a call can read (registrations, layouts): checked now and again
    /// after each signal the daemon sends (such state changes with a window's `PropertiesChanged`), never on a
    /// timer. Fails after `timeout` seconds (times `TestTiming.scale`).
    func until(_ what: String, timeout: Double = 30, _ check: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout * TestTiming.scale)
        while true {
            let seen = log.current.count
            if await check() { return }
            let left = deadline - ContinuousClock.now
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            guard seconds > 0, await log.wait(timeout: seconds / TestTiming.scale, until: { $0.count > seen }) != nil else {
                throw TestFailure("timed out after \(timeout * TestTiming.scale) s waiting for \(what)")
            }
        }
    }

    /// The registrations now (ListAdapters, through the typed client).
    func adapters() async -> [AdapterRegistration] { (try? await client.listAdapters()) ?? [] }

    /// Whether `adapter` is registered now (for any app).
    func isRegistered(_ adapter: String) async -> Bool { await adapters().contains { $0.adapter == adapter } }

    /// Every `TransitionCompleted` recorded, in order.
    var completions: [Completion] { all.compactMap(Completion.init) }

    /// Waits for the completion of transition `id`.
    func completion(of id: UInt64, timeout: Double = 30) async throws -> Completion {
        try await wait("TransitionCompleted #\(id)", timeout: timeout) { $0.contains { Completion($0)?.id == id } }
        return completions.first { $0.id == id }!
    }

    /// The ids of the transitions that began for `app` (any transition signal carries the id).
    func transitionIDs(of app: String) -> [UInt64] { Self.transitionIDs(of: app, in: all) }

    /// The ids of the transitions that began for `app` (of any window: nil) in `events`, in order.
    static func transitionIDs(of app: String?, in events: [TraitEvent]) -> [UInt64] {
        var ids: [UInt64] = []
        for event in events where (app == nil || event.app == app) && event.member != "TransitionCompleted" {
            if let id = event.transition, !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    deinit {
        client.close()
    }
}

/// One `TransitionCompleted(t id, as reported, as missed, as failed)`.
struct Completion: Equatable {
    let app: String
    let id: UInt64
    let reported: [String]
    let missed: [String]
    let failed: [String]

    init(app: String, id: UInt64, reported: [String], missed: [String], failed: [String]) {
        self.app = app
        self.id = id
        self.reported = reported
        self.missed = missed
        self.failed = failed
    }

    init?(_ event: TraitEvent) {
        guard case .transitionCompleted(let app, let id, let outcome) = event else { return nil }
        self.app = app
        self.id = id
        (reported, missed, failed) = (outcome.reported, outcome.missed, outcome.failed)
    }
}
