import Foundation
import TestSupport
import Testing

/// The daemon as a process: its command line, the bus name, signals, its config.
@Suite struct DaemonTests {
    @Test func aSecondDaemonOnTheSameBusExitsWithAMessage() async throws {
        let fixture = try await DaemonFixture()
        let second = try await ChildProcess.run(Binaries.path("traitd"), ["--bus", fixture.bus.address],
                                          environment: fixture.bus.environment)
        #expect(second.status == 1)
        #expect(second.stderr.contains("org.traitd.Layout1 is already owned by :1."))
        #expect(fixture.daemon.isRunning)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalsReleaseTheNameAndExitZero(signal: Int32) async throws {
        let fixture = try await DaemonFixture()
        fixture.daemon.kill(signal)
        #expect(await fixture.daemon.wait(timeout: 30) == 0)
        #expect(fixture.daemon.standardError.contains("released org.traitd.Layout1"))
        #expect(try await fixture.probe.nameOwner("org.traitd.Layout1") == nil)
    }

    @Test func aConfigFileChangesTheStart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-\(UUID()).yaml")
        try "display:\n  device: ipad-pro-12.9\n  orientation: portrait\n  arrangement: full\n".write(
            to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fixture = try await DaemonFixture(arguments: ["--config", file.path])
        let size = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                       "org.traitd.Layout1.Display", "ScreenSize"])
        #expect(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(dd) 1024 1366")
    }

    @Test func aBadConfigFileIsReportedWithItsLocation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-\(UUID()).yaml")
        try "display:\n  device: ipad-9.7\n  orientation: upside\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess.run(Binaries.path("traitd"), ["--config", file.path, "--bus", "unix:path=/nonexistent"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("\(file.path):3:16: unknown orientation 'upside'"))
    }

    @Test func commandLineHelpAndErrors() async throws {
        let help = try await ChildProcess.run(Binaries.path("traitd"), ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--bus <bus>") && help.stdout.contains("--log-level <level>"))
        #expect(help.stdout.contains("--state-dir <dir>") && help.stdout.contains("--no-state"))
        let both = try await ChildProcess.run(Binaries.path("traitd"), ["--state-dir", "/tmp/x", "--no-state"])
        #expect(both.status == 64 && both.stderr.contains("--state-dir and --no-state contradict each other"))
        let version = try await ChildProcess.run(Binaries.path("traitd"), ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)
        let badLevel = try await ChildProcess.run(Binaries.path("traitd"), ["--log-level", "loud"])
        #expect(badLevel.status == 64 && badLevel.stderr.contains("unknown log level 'loud'"))
        let noBus = try await ChildProcess.run(Binaries.path("traitd"), ["--bus", "unix:path=/nonexistent/bus", "--no-state"])
        #expect(noBus.status == 1 && noBus.stderr.contains("cannot connect to the unix:path=/nonexistent/bus bus"))
    }
}
