import DBus
import Foundation

/// A private bus with the real `traitd` binary on it, for one test.
public final class DaemonFixture: @unchecked Sendable {
    public let bus: PrivateBus
    public private(set) var daemon: ChildProcess
    /// A connection for the test's own checks.
    public let probe: Connection

    public init(arguments: [String] = []) async throws {
        bus = try PrivateBus()
        probe = try Connection(bus: .address(bus.address))
        daemon = try ChildProcess(Binaries.path("traitd"), ["--bus", bus.address, "--log-level", "debug"] + arguments,
                                  environment: bus.environment)
        try await waitForName()
    }

    /// Waits until traitd owns its name (or has exited).
    public func waitForName(timeout: Double = 15) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await probe.nameOwner("org.traitd.Layout1") != nil { return }
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
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The repository's top directory (for files such as Config/).
    public static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
