import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// Restoration state and the state file: nothing the simulation does loses an app's state, a restart brings
/// everything back, a corrupt file is moved aside, and `kill -9` never leaves a file that fails to load.
@Suite struct PersistenceTests {
    /// Values of many D-Bus types, nested, as an app might keep its navigation state.
    static let restoration: [String: DBusValue] = [
        "selection": .string("inbox/42"),
        "scroll": .double(1234.5),
        "far": .double(.infinity),
        "unread": .uint64(UInt64.max),
        "path": .strings(["inbox", "42"]),
        "flags": .array(element: "y", [.byte(1), .byte(255)]),
        "nested": .vardict(["open": .boolean(true), "depth": .int32(-3)]),
    ]

    @Test func restorationStateSurvivesEverythingTheSimulationDoes() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setRestorationState(Self.restoration, for: "mail")
        // gdbus (GDBus, another implementation) sets the other app's state.
        let gdbus = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/notes",
                                               "--method", "org.traitd.Layout1.Window.SetRestorationState",
                                               "{'tab': <'drafts'>, 'count': <int32 3>}"])
        #expect(gdbus.status == 0, "\(gdbus)")
        // A drag with snapshots that returns, rotations, a device change, other arrangements.
        try await client.beginDividerDrag()
        for x in [250.0, 694] { try await client.moveDivider(to: x) }
        try await client.endDividerDrag()
        try await client.rotate(to: .portrait)
        try await client.rotate(to: .landscapeRight)
        try await client.setDevice("ipad-pro-12.9")
        try await client.setArrangement(.splitHalf)
        try await client.setArrangement(.slideOver)
        try await client.setArrangement(.splitHalf)
        #expect(try await client.restorationState(of: "mail") == Self.restoration)
        let before = try await client.state()
        // A clean restart: the same display, apps and restoration states.
        try await fixture.restart()
        let after = try await client.state()
        #expect(after.device == "ipad-pro-12.9" && after.orientation == "landscape-right" && after.arrangement == "split-half")
        #expect(after.windows.map(\.frame) == before.windows.map(\.frame) && after.windows.map(\.app) == ["mail", "notes"])
        #expect(try await client.restorationState(of: "mail") == Self.restoration)
        #expect(try await client.restorationState(of: "notes") == ["tab": .string("drafts"), "count": .int32(3)])
        #expect(fixture.daemon.standardError.contains("restored the state saved in \(fixture.stateDirectory.path)/state.json"))
        // CloseApp ends an app: its state goes with it.
        try await client.closeApp("notes")
        try await client.openApp("notes", role: .secondary)
        #expect(try await client.restorationState(of: "notes").isEmpty)
    }

    @Test func restorationStateHasALimit() async throws {
        let fixture = try await DaemonFixture(config: "limits:\n  restoration-bytes: 1000\n")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await expectError("org.traitd.Layout1.Error.LimitExceeded", containing: "restoration-bytes") {
            try await client.setRestorationState(["big": .string(String(repeating: "x", count: 2000))], for: "mail")
        }
        #expect(try await client.restorationState(of: "mail").isEmpty)
    }

    @Test(arguments: [
        ("not json at all {", "the file: a traitd state file (JSON); this is not one"),
        // Every start trapped on this one (`Duplicate values for key`), systemd's restarts too.
        (#"{"version": 1, "display": {"device": "ipad-pro-11-m4", "orientation": "portrait", "arrangement": "full", "apps": [{"name": "mail", "role": "window"}], "background": [], "windowing": "stage-manager", "frames": {"mail": {"x": 0, "y": 0, "width": 500, "height": 500}}, "stacking": ["mail"], "displays": [{"id": "external-1", "profile": "external-4k"}, {"id": "external-1", "profile": "external-1080p"}]}, "restoration": {}}"#,
         "display.displays[1].id: each display has its own id; 'external-1' is also displays[0]'s"),
        (#"{"version": 1, "display": {"device": "ipad-99", "orientation": "portrait", "arrangement": "full", "apps": [], "background": []}, "restoration": {}}"#,
         "unknown device 'ipad-99'"),
        (#"{"version": 7, "display": {}, "restoration": {}}"#, "has no"),
    ])
    func aStateFileThatCannotBeLoadedIsMovedAsideAndReported(content: String, reason: String) async throws {
        let fixture = try await DaemonFixture()
        let file = fixture.stateDirectory.appendingPathComponent("state.json")
        fixture.daemon.kill(SIGTERM)
        _ = await fixture.daemon.wait(timeout: 30)
        try content.write(to: file, atomically: true, encoding: .utf8)
        try await fixture.restart()
        let log = fixture.daemon.standardError
        #expect(log.contains("the state file \(file.path) cannot be loaded") && log.contains(reason), "\(log)")
        if reason.hasPrefix("display.") { #expect(log.contains("\(file.path): \(reason)"), "one line for the field: \(log)") }
        #expect(log.contains("moved it to \(file.path).corrupt-"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory.path)
            .filter { $0.hasPrefix("state.json.corrupt-") }
        #expect(aside.count == 1)
        #expect(try String(contentsOf: fixture.stateDirectory.appendingPathComponent(aside[0]), encoding: .utf8) == content)
        // The daemon runs from its configuration, and writes a fresh, loadable file.
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        #expect(try await client.state().device == "ipad-9.7")
        try await client.rotate(to: .portrait)
        try await fixture.restart()
        #expect(try await client.state().orientation == "portrait")
    }

    /// Each screen's stage has its own limit at run time, and the load holds a file to the same rule: four
    /// windows on the iPad and one on a monitor come back after a restart (the load once counted all five
    /// against one limit and threw the whole state away).
    @Test func aStageWithAMonitorComesBackAfterARestart() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        _ = try await client.setDevice("ipad-pro-11-m4")
        _ = try await client.setWindowing(.stageManager)
        let monitor = try await client.connectDisplay("external-1440p")
        _ = try await client.openApp("photos", role: .window)
        _ = try await client.move("photos", toDisplay: monitor)
        for app in ["maps", "music"] { _ = try await client.openApp(app, role: .window) }
        try await client.setRestorationState(["tab": .string("albums")], for: "photos")
        let before = try await client.state()
        #expect(before.windows.count == 5 && before.displays == [monitor])
        try await fixture.restart()
        let after = try await client.state()
        #expect(after.windows.map(\.frame) == before.windows.map(\.frame) && after.stacking == before.stacking)
        #expect(after.displays == [monitor] && after.window("photos")?.display == monitor)
        #expect(try await client.restorationState(of: "photos") == ["tab": .string("albums")])
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
    }

    @Test func killMinus9DuringABurstNeverLeavesAStateFileThatFailsToLoad() async throws {
        let fixture = try await DaemonFixture()
        let commands: [@Sendable (TraitClient) async throws -> Void] = [
            { try await $0.rotate(to: .portrait) }, { try await $0.rotate(to: .landscapeLeft) },
            { try await $0.setArrangement(.splitHalf) }, { try await $0.setArrangement(.splitTwoThirds) },
            { try await $0.setDevice("ipad-pro-12.9") }, { try await $0.setDevice("ipad-9.7") },
            { try await $0.setRestorationState(["n": .int64(Int64.random(in: 0..<1_000_000))], for: "mail") },
        ]
        for round in 0..<10 {
            let client = try TraitClient(bus: .address(fixture.bus.address))
            let burst = Task {
                var sent = 0
                while !Task.isCancelled {
                    do { try await commands[sent % commands.count](client) } catch { break }
                    sent += 1
                }
                return sent
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...250)))
            try await fixture.restart(after: SIGKILL)
            burst.cancel()
            let sent = await burst.value
            client.close()
            let log = fixture.daemon.standardError
            #expect(log.contains("restored the state saved"), "round \(round) after \(sent) commands: \(log)")
            #expect(!log.contains("cannot be loaded"), "round \(round): \(log)")
        }
        // Nothing was moved aside. (A temporary file that a kill cut short is removed at the next start.)
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory.path)
        #expect(files.filter { $0.contains("corrupt") }.isEmpty && files.contains("state.json"), "\(files)")
    }

    @Test func theStateDirectoryComesFromTheEnvironmentWhenNotGiven() async throws {
        let bus = try await PrivateBus()
        let systemd = bus.folder.appendingPathComponent("systemd-state")
        let xdg = bus.folder.appendingPathComponent("xdg")
        for (variable, value, expected) in [("STATE_DIRECTORY", systemd.path, systemd.path),
                                            ("XDG_STATE_HOME", xdg.path, xdg.path + "/traitd")] {
            var environment = bus.environment
            environment["STATE_DIRECTORY"] = nil
            environment[variable] = value
            let daemon = try ChildProcess(Binaries.path("traitd"), ["--bus", bus.address, "--log-level", "debug"],
                                          environment: environment)
            // It says so once the first write is on disk.
            try await daemon.waitForOutput("saved the state to \(expected)/state.json", in: .errors)
            #expect(FileManager.default.fileExists(atPath: expected + "/state.json"), "\(variable): \(daemon.standardError)")
            daemon.kill(SIGTERM)
            #expect(await daemon.wait(timeout: 30) == 0)
        }
        // A state directory that was asked for and cannot be made is fatal: exit 73 with the reason.
        let bad = try await ChildProcess.run(Binaries.path("traitd"), ["--bus", bus.address, "--state-dir", "/proc/version/traitd"],
                                       environment: bus.environment)
        #expect(bad.status == 73 && bad.stderr.contains("cannot create the state directory /proc/version/traitd"), "\(bad)")
    }
}
