import DBus
import Foundation
import Spawn

/// A private bus with the real `traitd` binary on it, for one test.
// @unchecked: `daemon` changes only in `restart`, which a test calls from its own task between checks.
public final class DaemonFixture: @unchecked Sendable {
    public let bus: PrivateBus
    public private(set) var daemon: ChildProcess
    /// A connection for the test's own checks.
    public let probe: Connection

    /// The daemon's state directory (fresh for each fixture, in the bus's folder).
    public let stateDirectory: URL
    /// The daemon's arguments, kept for `restart`.
    public let arguments: [String]

    /// Starts a bus and traitd with `arguments`; `config` (YAML), when given, is written to a file and passed
    /// with `--config`.
    public init(arguments: [String] = [], config: String? = nil) async throws {
        bus = try await PrivateBus()
        probe = try Connection(bus: .address(bus.address))
        stateDirectory = bus.folder.appendingPathComponent("traitd-state")
        var arguments = ["--bus", bus.address, "--log-level", "debug", "--state-dir", stateDirectory.path] + arguments
        if let config {
            let file = bus.folder.appendingPathComponent("traitd.yaml")
            try config.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--config", file.path]
        }
        self.arguments = arguments
        daemon = try ChildProcess(Binaries.path("traitd"), arguments, environment: bus.environment)
        try await waitForName()
    }

    /// Stops the daemon with `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and starts a new one with the
    /// same arguments, bus and state directory. `previousOwner`, when given, is the name's owner before (for a daemon the test killed already).
    public func restart(after signal: Int32 = SIGTERM, previousOwner: String? = nil) async throws {
        var previous = previousOwner
        if previous == nil { previous = try await probe.nameOwner(Self.name) }
        daemon.kill(signal)
        guard await daemon.wait(timeout: 30) != nil else { throw TestFailure("traitd did not stop after signal \(signal)") }
        daemon = try ChildProcess(Binaries.path("traitd"), arguments, environment: bus.environment)
        try await waitForName(other: previous)
    }

    static let name = "org.traitd.Layout1"

    /// Waits until traitd owns its name (another owner than `previous`), or throws when it exits first.
    public func waitForName(timeout: Double = 60, other previous: String? = nil) async throws {
        try await waitForOwner(of: Self.name, on: probe, process: daemon, timeout: timeout) {
            $0.map { !$0.isEmpty && $0 != previous } ?? false
        }
    }

    /// Runs a command-line tool against this bus (as the session bus); returns status, stdout, stderr.
    public func run(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(tool, arguments, environment: bus.environment)
    }

    /// `dbus-send --session --print-reply --dest=org.traitd.Layout1 PATH INTERFACE.METHOD ARGS...`
    public func dbusSend(_ method: String, _ arguments: [String] = [], path: String = "/org/traitd/Layout1",
                         interface: String = "org.traitd.Layout1.Display") async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run("dbus-send", ["--session", "--print-reply", "--dest=org.traitd.Layout1", path, "\(interface).\(method)"] + arguments)
    }

    /// `busctl --user ARGS...` (sd-bus, an independent implementation).
    public func busctl(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run("busctl", ["--user"] + arguments)
    }

    /// `gdbus ARGS... --session` (GDBus, another independent implementation).
    public func gdbus(_ command: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run("gdbus", [command, "--session"] + arguments)
    }

    /// `traitctl ARGS... --bus ADDRESS`
    public func traitctl(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run(Binaries.path("traitctl"), arguments + ["--bus", bus.address])
    }

    /// The daemon is asked to stop (`ChildProcess` kills it if it has not after 5 s); nothing waits here.
    deinit {
        daemon.kill(SIGTERM)
        probe.close()
    }
}

/// Where the package's executables are: beside the test runner, or in `$TRAITD_BIN_DIR`.
public enum Binaries {
    public static func path(_ name: String) -> String {
        if let dir = ProcessInfo.processInfo.environment["TRAITD_BIN_DIR"] { return dir + "/" + name }
        return Spawn.besideThisExecutable(name)
    }

    /// The repository's top directory (for files such as Config/).
    public static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
