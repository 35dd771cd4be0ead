// transition-benchmark: the time from a client's SetArrangement call to TransitionCompleted on the client,
// with N adapters registered for the window, each on a bus connection of its own, on a private bus with the
// real traitd. Every adapter reports at each ViewWillTransitionToSize, so each transition completes when the
// last report arrives (never at the deadline: a deadline completion would count as an error).
//
//   transition-benchmark [--adapters 1,10] [--transitions 1000] [--traitd PATH]
//
// Prints one line per adapter count: p50, p99 and max in microseconds.
import DBus
import Foundation
import TestSupport
import TraitClient

struct Options {
    var adapterCounts = [1, 10]
    var transitions = 1000
    var traitd = Binaries.path("traitd")

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--adapters": adapterCounts = value.split(separator: ",").compactMap { Int($0) }
            case "--transitions": transitions = Int(value) ?? transitions
            case "--traitd": traitd = value
            default: fail("unknown option \(flag); options: --adapters 1,10 --transitions N --traitd PATH")
            }
        }
        if adapterCounts.isEmpty || adapterCounts.contains(where: { $0 < 0 }) || transitions < 10 { fail("bad options") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("transition-benchmark: \(message)\n".utf8))
    exit(2)
}

/// An adapter that reports one frame for every transition of `app`, as soon as it hears the new size.
final class EchoAdapter: @unchecked Sendable {
    let client: TraitClient
    private var task: Task<Void, Never>?

    init(bus: String, app: String, name: String) async throws {
        client = try TraitClient(bus: .address(bus))
        let events = try await client.events(of: app)
        try await client.registerAdapter(name, for: app)
        task = Task { [client] in
            for await event in events where event.app == app && event.member == "ViewWillTransitionToSize" {
                guard let id = event.transitionID, let w = event.arguments[1].double, let h = event.arguments[2].double else { continue }
                do {
                    try await client.reportLayout(app: app, transition: id, adapter: name, frames: ["root": (0, 0, w, h)])
                } catch {
                    FileHandle.standardError.write(Data("\(name): report for \(id) refused: \(error)\n".utf8))
                }
            }
        }
    }

    func close() {
        task?.cancel()
        client.close()
    }
}

/// Hands each completion of the mail window's transitions to the one waiting for it (no polling: on two cores
/// a polling loop would starve the adapters' tasks).
final class Completions: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: (after: UInt64, continuation: CheckedContinuation<[String], Never>)?
    private var lastCompleted: UInt64 = 0
    private var lastMissed: [String] = []

    func record(_ event: TraitEvent) {
        guard event.app == "mail", event.member == "TransitionCompleted", let id = event.transitionID else { return }
        let missed = event.arguments.count == 4 ? (event.arguments[2].strings ?? []) : []
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

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

let options = Options(CommandLine.arguments)
print("transition latency: SetArrangement call -> TransitionCompleted on the client, \(options.transitions) transitions each")
print("adapters      p50 µs      p99 µs      max µs   missed")
for count in options.adapterCounts {
    let bus = try PrivateBus()
    let daemon = try ChildProcess(options.traitd, ["--bus", bus.address, "--no-state", "--log-level", "warning"],
                                  environment: bus.environment)
    let client = try TraitClient(bus: .address(bus.address))
    let deadline = Date().addingTimeInterval(15)
    while (try? await client.connection.nameOwner("org.traitd.Layout1")) == nil {
        guard Date() < deadline, daemon.isRunning else { fail("traitd did not start: \(daemon.standardError)") }
        try await Task.sleep(for: .milliseconds(10))
    }
    var adapters: [EchoAdapter] = []
    for i in 0..<count { adapters.append(try await EchoAdapter(bus: bus.address, app: "mail", name: "echo-\(i)")) }
    let completions = Completions()
    let events = try await client.events()
    let listener = Task { for await event in events { completions.record(event) } }

    var samples: [Double] = []
    var missed = 0
    let arrangements = ["split-half", "split-two-thirds"]
    for i in 0..<(options.transitions + 20) {
        let before = completions.last
        let start = DispatchTime.now().uptimeNanoseconds
        try await client.setArrangement(arrangements[i % 2])
        let late = await completions.wait(after: before)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
        if i >= 20 {  // the first 20 warm up
            samples.append(elapsed)
            if !late.isEmpty {
                missed += 1
                if ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil { print("missed at \(i): \(late) after \(elapsed) µs") }
            }
        }
    }
    samples.sort()
    print(String(format: "%8d  %10.0f  %10.0f  %10.0f   %6d", count, percentile(samples, 0.5), percentile(samples, 0.99),
                 samples.last!, missed))
    listener.cancel()
    for adapter in adapters { adapter.close() }
    client.close()
    daemon.kill(SIGTERM)
    _ = daemon.wait(timeout: 10)
}

