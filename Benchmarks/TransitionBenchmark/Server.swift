import DBus
import Foundation
import TestSupport
import SolverWorkload
import TraitClient

/// The service a run measures: the real traitd, or the bare libdbus peer that exchanges the same messages.
enum ServerKind: String {
    case traitd
    case bare = "bare libdbus"
}

/// A private bus with one server on it, owning org.traitd.Layout1.
final class Server {
    let kind: ServerKind
    let bus: PrivateBus
    let process: ChildProcess

    /// The state directory traitd saves into (`savingState`), removed by `stop`.
    let stateDirectory: String?

    /// `savingState`: traitd keeps its state file in a scratch directory, as it does when deployed (the load
    /// measures the state store's cost with the rest); otherwise `--no-state`.
    init(_ kind: ServerKind, options: Options, savingState: Bool = false) async throws {
        self.kind = kind
        bus = try await PrivateBus()
        switch kind {
        case .traitd:
            var stateArguments = ["--no-state"]
            if savingState {
                let directory = FileManager.default.temporaryDirectory.path + "/transition-benchmark-state-\(getpid())"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                stateArguments = ["--state-dir", directory]
                stateDirectory = directory
            } else {
                stateDirectory = nil
            }
            process = try ChildProcess(options.traitd, ["--bus", bus.address, "--log-level", "warning"] + stateArguments,
                                       environment: bus.environment)
        case .bare:
            stateDirectory = nil
            process = try ChildProcess(options.peer, [bus.address], environment: bus.environment)
        }
        Waiting.set("\(kind.rawValue) to take org.traitd.Layout1")
        let probe = try Connection(bus: .address(bus.address))
        defer { probe.close() }
        let deadline = Date().addingTimeInterval(15)
        while (try? await probe.nameOwner(TraitClient.busName)) == nil {
            guard Date() < deadline, process.isRunning else { fail("\(kind.rawValue) did not start: \(process.standardError)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Seconds of CPU the server has used (user + system), from /proc/PID/stat.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    var residentMiB: Double { ProcessMemory.read(pid: process.pid).residentMiB }

    /// Asks the server to stop; `ChildProcess` kills it if it has not stopped after 5 s.
    func stop() {
        process.kill(SIGTERM)
        if let stateDirectory { try? FileManager.default.removeItem(atPath: stateDirectory) }
    }
}

/// An adapter that reports one frame for every transition of `app`, as soon as it hears the new size: the middle
/// half of the window, inside any safe area, so that the layout checks find nothing to publish. (Until stop 47
/// it reported the whole window, which the checks flag under the status bar: traitd then wrote and published a
/// problem per report in `LayoutProblems`, a property the bare peer does not send, and the two servers no longer
/// sent the same messages.)
// @unchecked: `task` is set once in `init` and only cancelled afterwards; `client` is constant.
final class EchoAdapter: @unchecked Sendable {
    let client: TraitClient
    private var task: Task<Void, Never>?

    init(bus: String, app: String, name: String) async throws {
        client = try TraitClient(bus: .address(bus))
        let events = try await client.windowSignals(of: app)
        try await client.registerAdapter(name, for: app)
        task = Task { [client] in
            for await event in events {
                guard case .viewWillTransitionToSize(app, let id, let size, _) = event else { continue }
                do {
                    let root = Rect(x: size.width / 4, y: size.height / 4, width: size.width / 2, height: size.height / 2)
                    try await client.reportLayout(app: app, transition: id, adapter: name, frames: ["root": root])
                } catch {
                    FileHandle.standardError.write(Data("\(name): report for \(id) refused: \(error)\n".utf8))
                }
            }
        }
    }

    static func start(_ count: Int, on server: Server) async throws -> [EchoAdapter] {
        var adapters: [EchoAdapter] = []
        for i in 0..<count { adapters.append(try await EchoAdapter(bus: server.bus.address, app: "mail", name: "echo-\(i)")) }
        return adapters
    }

    func close() {
        task?.cancel()
        client.close()
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// What the benchmark is waiting for now: what `--time-limit` says when it gives up.
// @unchecked: `what` is read and written under `lock` only.
final class Waiting: @unchecked Sendable {
    private static let shared = Waiting()
    private let lock = NSLock()
    private var what = "the start"

    static var now: String { shared.lock.withLock { shared.what } }
    static func set(_ text: String) { shared.lock.withLock { shared.what = text } }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("transition-benchmark: \(message)\n".utf8))
    exit(2)
}
