import DBus
import Foundation
import TestSupport
import TraitClient

/// The real `traitd-adapters` binary on a fixture's bus, its user config folder inside the bus's folder.
// @unchecked: `process` and `arguments` change only in `restart`, called from the test's own task.
final class HostProcess: @unchecked Sendable {
    let fixture: DaemonFixture
    private(set) var arguments: [String]
    private(set) var process: ChildProcess

    /// `$XDG_CONFIG_HOME` of the host: `traitd/layouts` under it is read too.
    var configHome: URL { fixture.bus.folder.appendingPathComponent("config") }

    init(_ fixture: DaemonFixture, _ arguments: [String] = []) throws {
        self.fixture = fixture
        self.arguments = ["--bus", fixture.bus.address, "--log-level", "debug"] + arguments
        process = try ChildProcess(Binaries.path("traitd-adapters"), self.arguments, environment: Self.environment(fixture))
    }

    static func environment(_ fixture: DaemonFixture) -> [String: String] {
        var env = fixture.bus.environment
        env["XDG_CONFIG_HOME"] = fixture.bus.folder.appendingPathComponent("config").path
        return env
    }

    /// Kills the host with `signal` and starts another with the same arguments, or with `options` in place of
    /// the host's own options (the bus and log level stay).
    func restart(after signal: Int32, options: [String]? = nil) async throws {
        if let options { arguments = Array(arguments.prefix(4)) + options }
        process.kill(signal)
        guard await process.wait() != nil else { throw TestFailure("traitd-adapters did not stop after signal \(signal)") }
        process = try ChildProcess(Binaries.path("traitd-adapters"), arguments, environment: Self.environment(fixture))
    }

    var log: String { process.standardError }

    /// `ChildProcess` stops the host when it goes (SIGTERM, then SIGKILL after 5 s).
    deinit { process.kill(SIGTERM) }
}

extension Recorder {
    /// Runs `command`, waits for the next transition of `app` to complete, and for every other transition the
    /// command began, and returns `app`'s completion.
    func transition(of app: String, _ what: String, timeout: Double = 30, _ command: () async throws -> Void)
        async throws -> Completion {
        let before = Set(transitionIDs(of: app))
        let beforeAny = Set(allTransitionIDs)
        try await command()
        try await wait("a transition of \(app) after \(what)", timeout: timeout) { events in
            Recorder.transitionIDs(of: app, in: events).contains { !before.contains($0) }
        }
        let id = transitionIDs(of: app).first { !before.contains($0) }!
        let completion = try await completion(of: id, timeout: timeout)
        // The command's other windows too: a next command must not find one of them still open (it would
        // complete it early, and that window's adapters' reports would come too late, refused as stale).
        for other in allTransitionIDs where !beforeAny.contains(other) && other != id {
            _ = try await self.completion(of: other, timeout: timeout)
        }
        return completion
    }

    /// The ids of every transition begun so far, of any window.
    var allTransitionIDs: [UInt64] { Recorder.transitionIDs(of: nil, in: all) }

    /// `app`'s window's `Layouts` and `LayoutExtras`, read with Properties.Get.
    func layouts(of app: String) async throws -> (frames: [String: [String: [Double]]], extras: [String: [String: DBusValue]]) {
        let frames = try await client.property(Layout1.Window.layouts, of: app)
        let extras = try await client.property(Layout1.Window.layoutExtras, of: app)
        return (frames.mapValues { $0.mapValues(\.values) }, extras)
    }
}
