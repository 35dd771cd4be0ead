import Foundation

/// A private `dbus-daemon --session` for one test, stopped when the value goes away.
// @unchecked: all fields are constants; ChildProcess and URL are what keeps the compiler from proving it.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let daemon: ChildProcess
    private let directory: URL

    /// A session bus with an open policy (the default), or a bus of `type` with `policy` as its policy XML and
    /// `extra` appended (an `<include>` or a `<servicedir>`). `{DIR}` in either is replaced by the bus's folder.
    public init(type: String = "session", policy: String? = nil, extra: String = "") async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        // A session bus on a socket of our own; no service activation, default limits.
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(type)</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              \(policy ?? Self.openPolicy)
              \(extra.replacingOccurrences(of: "{DIR}", with: directory.path))
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        // Other users (the policy tests run clients as nobody) must reach the socket.
        chmod(directory.path, 0o755)
        // dbus-daemon writes its address to fd 1 once it listens: that line is the event the bus is ready.
        daemon = try ChildProcess("dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"])
        try await daemon.waitForOutput("\n")
        address = daemon.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            throw TestFailure("dbus-daemon printed no address: '\(address)' \(daemon.standardError)")
        }
    }

    static let openPolicy = """
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
        """

    /// The folder that holds the bus's socket and config (tests may put files there).
    public var folder: URL { directory }

    /// Environment for child processes (dbus-send, busctl, gdbus, traitd) that should use this bus as the session bus.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        // A daemon started for this bus keeps its state in the bus's folder, never in the user's.
        env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        env["STATE_DIRECTORY"] = nil
        return env
    }

    /// The bus stops with the value (`ChildProcess` asks it to); its folder goes at once (a daemon still
    /// shutting down only loses files nobody will read).
    deinit {
        daemon.kill(SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
