import DBus
import Foundation
import TraitClient

/// A stream of calls at a fixed rate for some seconds, open loop (each call is sent on its tick whether or not
/// the previous one was answered, so a backlog would show as latency growing second by second), with adapters
/// registered for mail's window; per second the calls' latencies, and the server's CPU and resident size.
///
/// - The drag stream: `MoveDivider`, the divider sweeping 330 -> 684 -> 330 every two seconds, so it crosses the
///   507 snap point (a snapshot transition the adapters report for) once each way.
/// - The resize stream: a live resize of mail's free-form window, `ResizeTo` sweeping 500 -> 900 -> 500 pt wide
///   every two seconds, across the 678 pt size-class threshold once each way; every step is a transition the
///   adapters report for, and steps that come before they have reported coalesce.
struct StreamRun {
    struct Second {
        var latencies: [Double] = []
        var cpuPercent = 0.0
        var residentMiB = 0.0
    }

    var seconds: [Second]

    enum Kind: String { case drag, resize }

    static func measure(_ stream: Kind, _ kind: ServerKind, options: Options) async throws -> StreamRun {
        let server = try await Server(kind, options: options)
        let adapters = try await EchoAdapter.start(options.streamAdapters, on: server)
        let client = try TraitClient(bus: .address(server.bus.address))
        switch stream {
        case .drag:
            try await client.beginDividerDrag()
        case .resize:
            try await client.setWindowing(.stageManager)
            try await client.beginResize("mail")
        }
        Waiting.set("the \(stream) stream's calls to \(kind.rawValue)")
        let recorder = LatencyRecorder(seconds: options.streamSeconds)
        var run = StreamRun(seconds: Array(repeating: Second(), count: options.streamSeconds))
        let rate = Double(options.streamRate)
        let start = DispatchTime.now().uptimeNanoseconds
        var cpuBefore = server.cpuSeconds
        var calls: [Task<Void, Never>] = []
        for tick in 0..<(options.streamRate * options.streamSeconds) {
            let due = start + UInt64(Double(tick) / rate * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { try await Task.sleep(for: .nanoseconds(Int(due - now))) }
            if tick > 0 && tick % options.streamRate == 0 {
                let second = tick / options.streamRate - 1
                let cpu = server.cpuSeconds
                run.seconds[second].cpuPercent = (cpu - cpuBefore) * 100
                run.seconds[second].residentMiB = server.residentMiB
                cpuBefore = cpu
            }
            // A triangle wave over two seconds, 0 -> 1 -> 0.
            let phase = Double(tick % (2 * options.streamRate)) / rate
            let wave = phase <= 1 ? phase : 2 - phase
            let second = tick / options.streamRate
            calls.append(Task {
                let sent = DispatchTime.now().uptimeNanoseconds
                do {
                    switch stream {
                    case .drag: try await client.moveDivider(to: (330 + wave * 354).rounded())
                    case .resize: try await client.resize("mail", to: Size(width: (500 + wave * 400).rounded(), height: 600))
                    }
                    recorder.record(second: second, micros: Double(DispatchTime.now().uptimeNanoseconds - sent) / 1000)
                } catch {
                    recorder.fail("\(error)")
                }
            })
        }
        Waiting.set("the replies of the \(stream) stream's calls from \(kind.rawValue)")
        for call in calls { await call.value }
        let last = options.streamSeconds - 1
        run.seconds[last].cpuPercent = (server.cpuSeconds - cpuBefore) * 100
        run.seconds[last].residentMiB = server.residentMiB
        if let error = recorder.error { fail("\(stream) stream to \(kind.rawValue) failed: \(error)") }
        for (i, latencies) in recorder.latencies.enumerated() { run.seconds[i].latencies = latencies.sorted() }
        switch stream {
        case .drag: try await client.endDividerDrag()
        case .resize: try await client.endResize("mail")
        }
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
