import DBus
import Foundation
import TraitClient

/// Hands each completion of the mail window's transitions to the one waiting for it (no polling: on two cores
/// a polling loop would starve the adapters' tasks).
// @unchecked: every mutable field is read and written under `lock` only.
final class Completions: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: (after: UInt64, continuation: CheckedContinuation<[String], Never>)?
    private var lastCompleted: UInt64 = 0
    private var lastMissed: [String] = []

    func record(_ event: TraitEvent) {
        guard case .transitionCompleted("mail", let id, let outcome) = event else { return }
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

    static func measure(_ kind: ServerKind, adapters count: Int, options: Options) async throws -> LatencyRun {
        let server = try await Server(kind, options: options)
        let adapters = try await EchoAdapter.start(count, on: server)
        let client = try TraitClient(bus: .address(server.bus.address))
        let completions = Completions()
        let events = try await client.events()
        let listener = Task { for await event in events { completions.record(event) } }
        var run = LatencyRun()
        let arrangements: [Arrangement] = [.splitHalf, .splitTwoThirds]
        for i in 0..<(options.transitions + 20) {
            let before = completions.last
            Waiting.set("\(kind.rawValue) with \(count) adapter(s): TransitionCompleted of mail after #\(before), SetArrangement \(i + 1)")
            let start = DispatchTime.now().uptimeNanoseconds
            try await client.setArrangement(arrangements[i % 2])
            let late = await completions.wait(after: before)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            guard i >= 20 else { continue }  // the first 20 warm up
            run.samples.append(elapsed)
            if !late.isEmpty {
                run.missed += 1
                if options.verbose { print("missed at \(i): \(late) after \(elapsed) µs") }
            }
        }
        run.samples.sort()
        run.residentMiB = server.residentMiB
        listener.cancel()
        for adapter in adapters { adapter.close() }
        client.close()
        server.stop()
        return run
    }
}
