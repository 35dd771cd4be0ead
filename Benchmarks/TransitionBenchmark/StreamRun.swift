import DBus
import Foundation
import TraitClient

/// The drag stream: MoveDivider at a fixed rate for some seconds, open loop (each call is sent on its tick
/// whether or not the previous one was answered, so a backlog would show as latency growing second by second),
/// with adapters registered for the primary window. The divider sweeps 330 -> 684 -> 330 every two seconds, so
/// it crosses the 507 snap point (a snapshot transition the adapters report for) once each way.
struct DragRun {
    struct Second {
        var latencies: [Double] = []
        var cpuPercent = 0.0
        var residentMiB = 0.0
    }

    var seconds: [Second]

    static func measure(_ kind: ServerKind, options: Options) async throws -> DragRun {
        let server = try await Server(kind, options: options)
        let adapters = try await EchoAdapter.start(options.dragAdapters, on: server)
        let client = try TraitClient(bus: .address(server.bus.address))
        try await client.beginDividerDrag()
        let recorder = LatencyRecorder(seconds: options.dragSeconds)
        var run = DragRun(seconds: Array(repeating: Second(), count: options.dragSeconds))
        let rate = Double(options.dragRate)
        let start = DispatchTime.now().uptimeNanoseconds
        var cpuBefore = server.cpuSeconds
        var calls: [Task<Void, Never>] = []
        for tick in 0..<(options.dragRate * options.dragSeconds) {
            let due = start + UInt64(Double(tick) / rate * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { try await Task.sleep(for: .nanoseconds(Int(due - now))) }
            if tick > 0 && tick % options.dragRate == 0 {
                let second = tick / options.dragRate - 1
                let cpu = server.cpuSeconds
                run.seconds[second].cpuPercent = (cpu - cpuBefore) * 100
                run.seconds[second].residentMiB = server.residentMiB
                cpuBefore = cpu
            }
            // A triangle wave over two seconds: 330 -> 684 -> 330.
            let phase = Double(tick % (2 * options.dragRate)) / rate
            let x = (330 + (phase <= 1 ? phase : 2 - phase) * 354).rounded()
            let second = tick / options.dragRate
            calls.append(Task {
                let sent = DispatchTime.now().uptimeNanoseconds
                do {
                    try await client.moveDivider(to: x)
                    recorder.record(second: second, micros: Double(DispatchTime.now().uptimeNanoseconds - sent) / 1000)
                } catch {
                    recorder.fail("\(error)")
                }
            })
        }
        for call in calls { await call.value }
        let last = options.dragSeconds - 1
        run.seconds[last].cpuPercent = (server.cpuSeconds - cpuBefore) * 100
        run.seconds[last].residentMiB = server.residentMiB
        if let error = recorder.error { fail("MoveDivider to \(kind.rawValue) failed: \(error)") }
        for (i, latencies) in recorder.latencies.enumerated() { run.seconds[i].latencies = latencies.sorted() }
        try await client.endDividerDrag()
        try await Task.sleep(for: .milliseconds(300))  // the release's transition completes before the adapters go
        for adapter in adapters { adapter.close() }
        client.close()
        server.stop()
        return run
    }
}

/// Latencies by the second their call was sent in, from many tasks.
// @unchecked: every mutable field is read and written under `lock` only.
final class LatencyRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [[Double]]
    private var firstError: String?

    init(seconds: Int) { values = Array(repeating: [], count: seconds) }

    func record(second: Int, micros: Double) { lock.withLock { values[second].append(micros) } }
    func fail(_ error: String) { lock.withLock { firstError = firstError ?? error } }
    var latencies: [[Double]] { lock.withLock { values } }
    var error: String? { lock.withLock { firstError } }
}
