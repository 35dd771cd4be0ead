import DBus
import Foundation
import TraitClient

/// The load: N clients, each on a connection of its own, calling as fast as it can for some seconds, each
/// waiting for its reply before its next call (closed loop), a fixed mix: one call in five a command
/// (`SetArrangement`, split-half and split-two-thirds in turn: every other one is a transition), the others a read
/// (`Properties.Get` of `Serial`). Calls a second, p50 and p99 per call, and the server's CPU per call. traitd
/// saves its state as deployed (a state file in a scratch directory): the state store's cost is part of a command's.
struct LoadRun {
    var calls = 0
    var seconds = 0.0
    var latencies: [Double] = []
    var cpuSeconds = 0.0

    var callsPerSecond: Double { Double(calls) / max(seconds, 1e-9) }
    var cpuMicrosPerCall: Double { cpuSeconds * 1e6 / Double(max(calls, 1)) }

    static func measure(_ kind: ServerKind, options: Options) async throws -> LoadRun {
        let server = try await Server(kind, options: options, savingState: true)
        defer { server.stop() }
        var clients: [TraitClient] = []
        for _ in 0..<options.loadClients { clients.append(try TraitClient(bus: .address(server.bus.address))) }
        defer { clients.forEach { $0.close() } }
        Waiting.set("the load's \(options.loadClients) clients on \(kind.rawValue)")
        let cpuBefore = server.cpuSeconds
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(Double(options.loadSeconds) * 1e9)
        let arrangements: [Arrangement] = [.splitHalf, .splitTwoThirds]
        let perClient = try await withThrowingTaskGroup(of: [Double].self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    var latencies: [Double] = []
                    var call = index  // the clients' commands do not all come at once
                    while DispatchTime.now().uptimeNanoseconds < end {
                        let sent = DispatchTime.now().uptimeNanoseconds
                        if call % 5 == 0 {
                            try await client.setArrangement(arrangements[(call / 5) % 2])
                        } else {
                            _ = try await client.property(Layout1.Display.serial)
                        }
                        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1000)
                        call += 1
                    }
                    return latencies
                }
            }
            var all: [[Double]] = []
            for try await latencies in group { all.append(latencies) }
            return all
        }
        var run = LoadRun()
        run.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        run.cpuSeconds = server.cpuSeconds - cpuBefore
        run.latencies = perClient.flatMap { $0 }.sorted()
        run.calls = run.latencies.count
        return run
    }
}
