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
        bus = try PrivateBus()
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
    /// same arguments, bus and state directory.
    public func restart(after signal: Int32 = SIGTERM) async throws {
        let previous = try await probe.nameOwner("org.traitd.Layout1")
        daemon.kill(signal)
        _ = daemon.wait(timeout: 10)
        daemon = try ChildProcess(Binaries.path("traitd"), arguments, environment: bus.environment)
        try await waitForName(other: previous)
    }

    /// Waits until traitd owns its name (or has exited).
    public func waitForName(timeout: Double = 15, other previous: String? = nil) async throws {
        let timeout = timeout * TestTiming.scale
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let owner = try await probe.nameOwner("org.traitd.Layout1"), owner != previous { return }
            if !daemon.isRunning { throw TestFailure("traitd exited early: \(daemon.standardError)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("traitd did not take its name in \(timeout) s: \(daemon.standardError)")
    }

    /// Runs a command-line tool against this bus (as the session bus); returns status, stdout, stderr.
    public func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(tool, arguments, environment: bus.environment)
    }

    /// `dbus-send --session --print-reply --dest=org.traitd.Layout1 PATH INTERFACE.METHOD ARGS...`
    public func dbusSend(_ method: String, _ arguments: [String] = [], path: String = "/org/traitd/Layout1",
                         interface: String = "org.traitd.Layout1.Display") throws -> (status: Int32, stdout: String, stderr: String) {
        try run("dbus-send", ["--session", "--print-reply", "--dest=org.traitd.Layout1", path, "\(interface).\(method)"] + arguments)
    }

    /// `busctl --user ARGS...` (sd-bus, an independent implementation).
    public func busctl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run("busctl", ["--user"] + arguments)
    }

    /// `gdbus ARGS... --session` (GDBus, another independent implementation).
    public func gdbus(_ command: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run("gdbus", [command, "--session"] + arguments)
    }

    /// `traitctl ARGS... --bus ADDRESS`
    public func traitctl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(Binaries.path("traitctl"), arguments + ["--bus", bus.address])
    }

    deinit {
        daemon.kill(SIGTERM)
        _ = daemon.wait(timeout: 5)
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
