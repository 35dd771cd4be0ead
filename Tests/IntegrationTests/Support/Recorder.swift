import DBus
import Foundation
import TestSupport
import TraitClient

/// Records every signal of the daemon on a connection of its own, for tests that look at what happened.
// @unchecked: `events` is read and written under `lock` only; `task` is set once in `init`.
final class Recorder: @unchecked Sendable {
    let client: TraitClient
    private let lock = NSLock()
    private var events: [TraitEvent] = []
    private var task: Task<Void, Never>?

    init(_ fixture: DaemonFixture) async throws {
        client = try TraitClient(bus: .address(fixture.bus.address))
        let stream = try await client.events()
        task = Task { [lock] in
            for await event in stream { lock.withLock { self.events.append(event) } }
        }
    }

    var all: [TraitEvent] { lock.withLock { events } }

    func clear() { lock.withLock { events.removeAll() } }

    /// Waits until `condition` holds for what was recorded (polling), and returns it.
    @discardableResult
    func wait(_ what: String, timeout: Double = 10, until condition: ([TraitEvent]) -> Bool) async throws -> [TraitEvent] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let seen = all
            if condition(seen) { return seen }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestFailure("timed out after \(timeout) s waiting for \(what); saw:\n" + all.map(\.description).joined(separator: "\n"))
    }

    /// Every `TransitionCompleted` recorded, in order.
    var completions: [Completion] { all.compactMap(Completion.init) }

    /// Waits for the completion of transition `id`.
    func completion(of id: UInt64, timeout: Double = 10) async throws -> Completion {
        try await wait("TransitionCompleted #\(id)", timeout: timeout) { $0.contains { Completion($0)?.id == id } }
        return completions.first { $0.id == id }!
    }

    /// The ids of the transitions that began for `app` (any transition signal carries the id).
    func transitionIDs(of app: String) -> [UInt64] {
        var ids: [UInt64] = []
        for event in all where event.app == app && event.member != "TransitionCompleted" {
            if let id = event.transition, !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    deinit {
        task?.cancel()
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
