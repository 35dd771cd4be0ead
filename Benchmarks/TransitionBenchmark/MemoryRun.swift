import DBus
import Foundation
import SolverWorkload
import TestSupport
import TraitClient

/// traitd's and the adapter host's memory: idle, then across N transitions (alternating split-half and
/// split-two-thirds, each waited for) with the host's four built-in adapters registered and reporting. A
/// long-running daemon's memory must not grow with the work it has done.
struct MemoryRun {
    struct Sample {
        var transitions: Int
        var seconds: Double
        var traitd: ProcessMemory
        var host: ProcessMemory
    }

    var idleTraitd = ProcessMemory()
    var samples: [Sample] = []

    static func measure(transitions: Int, options: Options, report: (Sample) -> Void) async throws -> MemoryRun {
        let server = try await Server(.traitd, options: options)
        defer { server.stop() }
        var run = MemoryRun()
        try await Task.sleep(for: .seconds(1))
        run.idleTraitd = ProcessMemory.read(pid: server.process.pid)
        let host = try ChildProcess(options.host, ["--bus", server.bus.address, "--log-level", "warning"],
                                    environment: server.bus.environment)
        defer { host.kill(SIGTERM) }
        let client = try TraitClient(bus: .address(server.bus.address))
        defer { client.close() }
        // The host registers its four adapters (two on mail) shortly after it connects.
        let deadline = Date().addingTimeInterval(15)
        while try await client.listAdapters().count < 4 {
            guard Date() < deadline, host.isRunning else { fail("the adapter host did not register: \(host.standardError)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .seconds(1))
        let completions = Completions()
        let events = try await client.events()
        let listener = Task { for await event in events { completions.record(event) } }
        defer { listener.cancel() }
        let start = Date()
        func sample(_ done: Int) -> Sample {
            Sample(transitions: done, seconds: Date().timeIntervalSince(start),
                   traitd: ProcessMemory.read(pid: server.process.pid), host: ProcessMemory.read(pid: host.pid))
        }
        run.samples.append(sample(0))
        report(run.samples[0])
        // The default display is in split-two-thirds: start with the other, so that every call is a transition.
        let arrangements: [Arrangement] = [.splitHalf, .splitTwoThirds]
        let every = max(1, transitions / 10)
        for i in 1...transitions {
            let before = completions.last
            Waiting.set("traitd with the adapter host: TransitionCompleted of mail after #\(before), transition \(i)")
            try await client.setArrangement(arrangements[(i - 1) % 2])
            _ = await completions.wait(after: before)
            if i % every == 0 || i == transitions {
                run.samples.append(sample(i))
                report(run.samples.last!)
            }
        }
        return run
    }
}
