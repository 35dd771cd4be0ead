import Foundation
import TestSupport
import Testing

/// `traitctl run -- COMMAND`: a private bus with traitd for one command, torn down after it whatever happens.
@Suite struct TraitctlRunTests {
    let traitctl = Binaries.path("traitctl")

    /// The environment of a user with no session bus: traitctl run must not need one.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment["PATH"] = URL(fileURLWithPath: traitctl).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    @Test func theCommandSeesTraitdAndItsStatusIsPassedOn() async throws {
        let status = try await ChildProcess.run(traitctl, ["run", "--", "traitctl", "status"], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("ipad-9.7  landscape-left  1024 x 768 pt @2x  split-two-thirds  (serial 1)\n"))
        for code in [0, 1, 7, 255] {
            let run = try await ChildProcess.run(traitctl, ["run", "--", "sh", "-c", "exit \(code)"], environment: environment)
            #expect(run.status == Int32(code), "exit \(code)")
        }
        let missing = try await ChildProcess.run(traitctl, ["run", "--", "no-such-command-here"], environment: environment)
        #expect(missing.status == 127, "env's status for a command it cannot find")
    }

    @Test func deviceAndAdapterHost() async throws {
        let run = try await ChildProcess.run(
            traitctl, ["run", "--adapters", "--device", "ipad-mini-6", "--", "sh", "-c", "traitctl status && traitctl adapters"],
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("ipad-mini-6  "))
        // The host's four built-in adapters were registered before the command started.
        for adapter in ["support-panel", "xy-slider", "book-pages", "split-columns"] {
            #expect(run.stdout.contains(adapter), "\(adapter) in:\n\(run.stdout)")
        }
    }

    /// `--config` reaches the adapter host too: an adapter the file turns off is not registered, and a page
    /// under its `bridges:` is registered (its page loaded) before the command starts. The host once ran the
    /// embedded default whatever the file said, and the page never appeared.
    @Test func theConfigReachesTheAdapterHost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitctl-run-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/adaptive.html").path
        let config = folder.appendingPathComponent("traitd.yaml")
        try """
            adapters:
              book-pages: { app: notes, enabled: false }
            bridges:
              web: { mail: "file://\(page)" }

            """.write(to: config, atomically: true, encoding: .utf8)
        let run = try await ChildProcess.run(traitctl, ["run", "--adapters", "--config", config.path, "--", "traitctl", "adapters"],
                                             environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("book-pages") && run.stdout.contains("xy-slider"), "\(run.stdout)")
        #expect(run.stdout.contains("web"), "the page's adapter, registered once its page loaded:\n\(run.stdout)")
    }

    @Test func badUseIsRefusedWithoutStartingAnything() async throws {
        let none = try await ChildProcess.run(traitctl, ["run"], environment: environment)
        #expect(none.status == 64 && none.stderr.contains("no command"), "\(none.stderr)")
        let device = try await ChildProcess.run(traitctl, ["run", "--device", "ipad-99", "--", "true"], environment: environment)
        #expect(device.status == 125 && device.stderr.contains("ipad-99"), "\(device.stderr)")
    }

    /// The command killed with SIGKILL: traitctl run exits 128 + 9 and leaves no bus, traitd or folder behind.
    @Test func aKilledCommandLeavesNothingBehind() async throws {
        let (run, command, runFolder) = try await runSleepingCommand()
        #expect(!processes(mentioning: "/" + runFolder).isEmpty, "the bus and traitd run while the command does")
        kill(command, SIGKILL)
        #expect(await run.wait(timeout: 30) == 137)
        #expect(processes(mentioning: "/" + runFolder).isEmpty, "left running: \(processes(mentioning: "/" + runFolder))")
        #expect(!FileManager.default.fileExists(atPath: "/" + runFolder))
    }

    /// traitctl run itself killed with SIGKILL: its watchdog stops the bus, traitd and the host and removes the
    /// folder. (The command is the caller's to stop, as with dbus-run-session.)
    @Test func aKilledTraitctlRunLeavesNoBusBehind() async throws {
        let (run, command, runFolder) = try await runSleepingCommand()
        defer { kill(command, SIGKILL) }
        #expect(processes(mentioning: "/" + runFolder).count >= 4, "the bus, traitd, the host and the watchdog run")
        run.kill(SIGKILL)
        #expect(await run.wait(timeout: 30) == 137)
        var left = processes(mentioning: "/" + runFolder)
        // No event tells that another process's children are gone: look again every 20 ms, for up to a minute.
        for _ in 0..<(Int(3000 * TestTiming.scale)) where !left.isEmpty || FileManager.default.fileExists(atPath: "/" + runFolder) {
            try await Task.sleep(for: .milliseconds(20))
            left = processes(mentioning: "/" + runFolder)
        }
        #expect(left.isEmpty, "left running: \(left)")
        #expect(!FileManager.default.fileExists(atPath: "/" + runFolder))
    }

    /// `traitctl run --adapters -- sh -c '... exec sleep 60'`, once the command runs: traitctl run's process, the
    /// command's pid, and the run's folder (without its leading /), which is in every started process's arguments.
    func runSleepingCommand() async throws -> (run: ChildProcess, command: Int32, runFolder: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = "echo \"$DBUS_SESSION_BUS_ADDRESS\" > \(folder.path)/address; echo $$ > \(folder.path)/pid; echo started; exec sleep 60"
        let run = try ChildProcess(traitctl, ["run", "--adapters", "--", "sh", "-c", script], environment: environment)
        // The command's output is traitctl run's: "started" says both files are written.
        try await run.waitForOutput("started")
        let pid = try String(contentsOf: folder.appendingPathComponent("pid"), encoding: .utf8)
        let command = try #require(Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)), "pid file: \(pid)")
        let address = try String(contentsOf: folder.appendingPathComponent("address"), encoding: .utf8)
        // unix:path=/tmp/traitctl-run-PID-N/dbus-XXXX,guid=...
        let runFolder = try #require(address.split(separator: "=").dropFirst().first?.split(separator: "/").dropLast()
            .joined(separator: "/"), "address \(address)")
        return (run, command, runFolder)
    }

    /// Command lines (from /proc) that contain `text`.
    func processes(mentioning text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(text) ? "\(pid): \(line)" : nil
        }
    }
}
