import DBus
import Foundation
import TraitClient

/// Hands each completion of one window's transitions (mail's unless told) to the one waiting for it (no polling:
/// on two cores a polling loop would starve the adapters' tasks).
// @unchecked: every mutable field is read and written under `lock` only.
final class Completions: @unchecked Sendable {
    private let app: String
    private let lock = NSLock()
    private var waiter: (after: UInt64, continuation: CheckedContinuation<[String], Never>)?
    private var lastCompleted: UInt64 = 0
    private var lastMissed: [String] = []

    init(app: String = "mail") { self.app = app }

    func record(_ event: TraitEvent) {
        guard case .transitionCompleted(let app, let id, let outcome) = event, app == self.app else { return }
        let missed = outcome.missed
        let ready = lock.withLock { () -> CheckedContinuation<[String], Never>? in
            lastCompleted = id
            lastMissed = missed
            guard let waiter, id > waiter.after else { return nil }
            self.waiter = nil
            return waiter.continuation
        }
        ready?.resume(returning: missed)
    }

    /// The id of the last completed transition, to wait past.
    var last: UInt64 { lock.withLock { lastCompleted } }

    /// Waits for a completion with an id above `after`; returns its missed adapters.
    func wait(after: UInt64) async -> [String] {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> [String]? in
                if lastCompleted > after { return lastMissed }
                waiter = (after, continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Latency samples of one server with N adapters: SetArrangement call -> TransitionCompleted on the client.
struct LatencyRun {
    var samples: [Double] = []
    var missed = 0
    /// The server's resident memory after the run.
    var residentMiB = 0.0

    var p50: Double { percentile(samples, 0.5) }
    var p99: Double { percentile(samples, 0.99) }

    /// traitd and the bare peer side by side, each on its own bus with its own adapters and client, measured in
    /// turn, one transition each: a machine whose speed drifts (a 2-core VM did by a fifth within minutes) then
    /// slows both alike. Run one after the other, the two halves saw different machines, and the ratio moved
    /// from 1.1x to 1.5x between runs of the same binaries.
    static func measurePair(adapters count: Int, options: Options) async throws -> (traitd: LatencyRun, bare: LatencyRun) {
        let ours = try await Subject(.traitd, adapters: count, options: options)
        let bare = try await Subject(.bare, adapters: count, options: options)
        defer {
            ours.stop()
            bare.stop()
        }
        for i in 0..<(options.transitions + 20) {
            let warm = i >= 20  // the first 20 of each warm up
            try await ours.transition(i, recording: warm, options: options)
            try await bare.transition(i, recording: warm, options: options)
        }
        return (ours.finish(), bare.finish())
    }

    /// One server with its adapters and a client that waits for its transitions.
    private final class Subject {
        let kind: ServerKind
        let count: Int
        let server: Server
        let adapters: [EchoAdapter]
        let client: TraitClient
        let completions = Completions()
        let listener: Task<Void, Never>
        var run = LatencyRun()

        init(_ kind: ServerKind, adapters count: Int, options: Options) async throws {
            self.kind = kind
            self.count = count
            server = try await Server(kind, options: options)
            adapters = try await EchoAdapter.start(count, on: server)
            client = try TraitClient(bus: .address(server.bus.address))
            let events = try await client.events()
            let completions = completions
            listener = Task { for await event in events { completions.record(event) } }
        }

        func transition(_ i: Int, recording: Bool, options: Options) async throws {
            let arrangements: [Arrangement] = [.splitHalf, .splitTwoThirds]
            let before = completions.last
            Waiting.set("\(kind.rawValue) with \(count) adapter(s): TransitionCompleted of mail after #\(before), SetArrangement \(i + 1)")
            let start = DispatchTime.now().uptimeNanoseconds
            try await client.setArrangement(arrangements[i % 2])
            let late = await completions.wait(after: before)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            guard recording else { return }
            run.samples.append(elapsed)
            if !late.isEmpty {
                run.missed += 1
                if options.verbose { print("\(kind.rawValue) missed at \(i): \(late) after \(elapsed) µs") }
            }
        }

        func finish() -> LatencyRun {
            run.samples.sort()
            run.residentMiB = server.residentMiB
            return run
        }

        func stop() {
            listener.cancel()
            for adapter in adapters { adapter.close() }
            client.close()
            server.stop()
        }
    }
}
