import ArgumentParser
import DBus
import Foundation
import TraitClient

/// `--wait [--strict] [--timeout S]` for the commands that change the display: run the command, then wait
/// until every transition it started has completed, and print each `TransitionCompleted`.
struct WaitOptions: ParsableArguments {
    @Flag(help: "Return when the transitions the command started have completed; print each one's reported, missed and failed adapters.")
    var wait = false
    @Flag(help: "With --wait: exit 2 when an adapter missed its deadline or reported a failed layout.")
    var strict = false
    @Option(help: ArgumentHelp("With --wait: give up after this many seconds (exit 1).", valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        if strict, !wait { throw ValidationError("--strict goes with --wait") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// Runs `command`; with --wait, then waits for its transitions.
    ///
    /// Which transitions are the command's: the daemon raises `Serial` once per change of state and announces
    /// each change's transitions (their first signals, with their ids) just before the display's
    /// `PropertiesChanged` that carries the new `Serial`. So the transitions announced before a `Serial` between
    /// the one read before the call and the one read after it are this command's. A command another client
    /// sends in that same interval is counted too; nothing on the bus can tell the two apart.
    func around(_ client: TraitClient, _ command: () async throws -> Void) async throws {
        guard wait else { return try await command() }
        let events = try await client.events()
        let before = try await Self.serial(client)
        try await command()
        let after = try await Self.serial(client)
        guard after > before else {
            print("no transitions: nothing changed")
            return
        }
        var tracker = TransitionTracker(serials: (before + 1)...after)
        let seconds = timeout
        let watcher = Task { [tracker] in
            var tracker = tracker
            for await event in events where tracker.take(event) { break }
            return tracker
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            watcher.cancel()
        }
        tracker = await watcher.value
        timer.cancel()
        guard tracker.isDone else {
            let waiting = tracker.ours.filter { tracker.completed[$0] == nil }.map { "#\($0)" }
            throw Failure(message: "gave up after \(seconds.compact) s waiting for transition(s) \(waiting.joined(separator: ", ")) to complete")
        }
        if tracker.ours.isEmpty { print("no transitions: the change moved no window") }
        var settledCleanly = true
        for id in tracker.ours {
            let completion = tracker.completed[id]!
            print(completion.description)
            if case .transitionCompleted(_, _, let outcome) = completion, !outcome.missed.isEmpty || !outcome.failed.isEmpty {
                settledCleanly = false
            }
        }
        if strict, !settledCleanly {
            FileHandle.standardError.write(Data("traitctl: an adapter missed or failed (--strict)\n".utf8))
            throw ExitCode(2)
        }
    }

    private static func serial(_ client: TraitClient) async throws -> UInt64 {
        try await client.property(Layout1.Display.serial)
    }
}

/// Follows the signals after a command, sorting out which transitions are the command's and which completed.
struct TransitionTracker {
    /// The values `Serial` took because of the command.
    let serials: ClosedRange<UInt64>
    /// Transitions announced since the last `Serial`, not yet attributed.
    private var announced: [UInt64] = []
    private var seen: Swift.Set<UInt64> = []
    /// The command's transitions, in the order they began.
    private(set) var ours: [UInt64] = []
    private(set) var completed: [UInt64: TraitEvent] = [:]
    /// Whether the last of the command's `Serial`s has gone by (no more transitions of its can begin).
    private var sawLastSerial = false

    init(serials: ClosedRange<UInt64>) { self.serials = serials }

    var isDone: Bool { sawLastSerial && ours.allSatisfy { completed[$0] != nil } }

    /// Takes one signal; returns whether the wait is over.
    mutating func take(_ event: TraitEvent) -> Bool {
        if case .transitionCompleted(_, let id, _) = event {
            completed[id] = event
        } else if let id = event.transition, seen.insert(id).inserted {
            announced.append(id)
        } else if case .displayChanged(let changes) = event, let serial = changes[Layout1.Display.serial] {
            if serials.contains(serial) { ours += announced }
            announced = []
            if serial >= serials.upperBound { sawLastSerial = true }
        }
        return isDone
    }
}
