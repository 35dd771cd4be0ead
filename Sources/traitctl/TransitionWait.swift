import ArgumentParser
import DBus
import Foundation
import Synchronization
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
        try SecondsOption.check(timeout)
    }

    /// Runs `command`; with --wait, then waits for its transitions.
    ///
    /// Which transitions are the command's: the daemon's reply names them (every stage of a divider move
    /// included), and sends all their signals before it; subscribing first, the wait sees every completion,
    /// and only the command's count, whatever other clients do meanwhile.
    func around(_ client: TraitClient, _ command: () async throws -> [UInt64]) async throws {
        guard wait else {
            _ = try await command()
            return
        }
        let events = try await client.events()
        let before = try await Self.serial(client)
        let started = try await command()
        guard !started.isEmpty else {
            // Only the wording reads Serial (another client's change in between would make it say the second).
            print(try await Self.serial(client) == before ? "no transitions: nothing changed" : "no transitions: the change moved no window")
            return
        }
        let seconds = timeout
        let waiting = SharedTracker(ours: started)
        let watcher = Task {
            for await event in events where waiting.take(event) { break }
            return waiting.current
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            watcher.cancel()
        }
        let progress = Task { try await Self.sayWhileWaiting(for: waiting, timeout: seconds) }
        let tracker = await watcher.value
        timer.cancel()
        progress.cancel()
        guard tracker.isDone else {
            let waiting = tracker.ours.filter { tracker.completed[$0] == nil }.map { "#\($0)" }
            throw Failure(message: "gave up after \(seconds.compact) s waiting for transition(s) \(waiting.joined(separator: ", ")) to complete")
        }
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

    /// On a terminal, a wait longer than two seconds says what it waits for, then every five seconds: an adapter
    /// that does not report holds its transition until the deadline (a minute, if the config says so), and a
    /// silent prompt looks like a hang. Standard error only, and not when it is a file or a pipe: scripts read
    /// the completions on standard output, and their logs get no progress lines.
    private static func sayWhileWaiting(for waiting: SharedTracker, timeout: Double) async throws {
        guard isatty(STDERR_FILENO) == 1 else { return }
        var elapsed = 2
        try await Task.sleep(for: .seconds(elapsed))
        while true {
            let tracker = waiting.current
            let pending = tracker.ours.filter { tracker.completed[$0] == nil }
            let list = pending.map { "#\($0)" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("""
                traitctl: waiting \(elapsed) s for transition\(pending.count == 1 ? "" : "s") \(list) to complete \
                (an adapter that has not reported holds a transition until its deadline; --timeout \(timeout.compact) s)

                """.utf8))
            try await Task.sleep(for: .seconds(5))
            elapsed += 5
        }
    }

    private static func serial(_ client: TraitClient) async throws -> UInt64 {
        try await client.property(Layout1.Display.serial)
    }
}

/// A `TransitionTracker` the wait updates and its progress lines read.
final class SharedTracker: Sendable {
    private let tracker: Mutex<TransitionTracker>

    init(ours: [UInt64]) { tracker = Mutex(TransitionTracker(ours: ours)) }

    /// Takes one signal; returns whether the wait is over.
    func take(_ event: TraitEvent) -> Bool { tracker.withLock { $0.take(event) } }

    var current: TransitionTracker { tracker.withLock { $0 } }
}

/// Follows the signals after a command until every transition it started has completed.
struct TransitionTracker {
    /// The command's transitions, in the order they began (from its reply).
    let ours: [UInt64]
    private(set) var completed: [UInt64: TraitEvent] = [:]

    /// `ours` once each: the steps of a live resize that waited together are told the same transition.
    init(ours: [UInt64]) {
        var seen: Set<UInt64> = []
        self.ours = ours.filter { seen.insert($0).inserted }
    }

    var isDone: Bool { ours.allSatisfy { completed[$0] != nil } }

    /// Takes one signal; returns whether the wait is over.
    mutating func take(_ event: TraitEvent) -> Bool {
        if case .transitionCompleted(_, let id, _) = event, ours.contains(id) { completed[id] = event }
        return isDone
    }
}
