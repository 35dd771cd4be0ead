import DBus
import Foundation
import TestSupport
import TraitClient
import TraitConfig
import TraitModel
import Testing

/// Acknowledged means durable: every command's reply (`SetRestorationState`'s, and every display and window
/// command's) leaves only once the state it led to is on disk, so traitd killed with SIGKILL the moment a reply
/// arrives still has it after a restart; and a dictionary with a repeated key is refused by name.
@Suite struct DurabilityTests {
    @Test func everyAcknowledgedWriteSurvivesAKillRightAfterItsReply() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let rounds = 30
        var lost: [Int] = []
        for round in 1...rounds {
            let state: [String: DBusValue] = [
                "round": .int32(Int32(round)), "note": .string(String(repeating: "n", count: round * 100)),
            ]
            try await client.setRestorationState(state, for: round.isMultiple(of: 2) ? "mail" : "notes")
            fixture.daemon.kill(SIGKILL)  // no time for a write still in flight
            try await fixture.restart(after: SIGKILL)
            let app = round.isMultiple(of: 2) ? "mail" : "notes"
            if try await client.restorationState(of: app) != state { lost.append(round) }
        }
        #expect(lost.isEmpty, "acknowledged writes lost after kill -9: rounds \(lost) of \(rounds)")
    }

    @Test func writesArrivingTogetherShareAWriteAndAllSurvive() async throws {
        let fixture = try await DaemonFixture()
        let clients = try (0..<16).map { _ in try TraitClient(bus: .address(fixture.bus.address)) }
        defer { clients.forEach { $0.close() } }
        // 16 clients at once, each writing mail's or notes' state; every reply means "on disk".
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, client) in clients.enumerated() {
                group.addTask {
                    try await client.setRestorationState(["writer": .int32(Int32(n))], for: n.isMultiple(of: 2) ? "mail" : "notes")
                }
            }
            try await group.waitForAll()
        }
        let mail = try await clients[0].restorationState(of: "mail")
        let notes = try await clients[0].restorationState(of: "notes")
        // Every acknowledgement waited for a write; writes waiting together share one (on a slow disk, few
        // writes carry many acknowledgements). A write's log line is written before its replies go out, but it
        // reaches this process through the daemon's stderr pipe in its own time: wait for the lines, line by
        // line, until they account for the 16 replies (or time out, saying what came).
        func waited() -> [Int] {
            fixture.daemon.standardError.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: " acknowledgement(s) waited") else { return nil }
                return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
            }
        }
        while waited().reduce(0, +) < 16 {
            try await fixture.daemon.waitForOutput(" acknowledgement(s) waited", occurrences: waited().count + 1, in: .errors)
        }
        #expect(waited().reduce(0, +) == 16, "\(waited())")
        #expect(waited().count <= 17, "\(waited())")
        fixture.daemon.kill(SIGKILL)
        try await fixture.restart(after: SIGKILL)
        #expect(try await clients[0].restorationState(of: "mail") == mail)
        #expect(try await clients[0].restorationState(of: "notes") == notes)
    }

    /// 100 rounds, each a random walk of commands of every kind (devices, rotations, arrangements, apps,
    /// settings, windowing, frames, tiles, live resizes, displays, the keyboard, and apps' declarations and
    /// geometry requests, sent by the app's adapter connection), each sent only once the one before was
    /// acknowledged; `kill -9` the moment the last reply arrives, then restart. The daemon must come back in
    /// exactly the state the last acknowledged command left, which the model (the same code, in this process)
    /// computes from the same commands. Before replies waited for the disk, a kill within the writer's quiet
    /// interval (25 ms) lost the newest changes.
    @Test func noAcknowledgedCommandIsLostToKillMinus9() async throws {
        let fixture = try await DaemonFixture()
        let catalog = try ProfileLoader.catalog()
        var model = try DaemonConfig.embedded().makeSimulation(catalog: catalog)
        var commands = RandomCommands(seed: 44)
        var acknowledged = 0
        for round in 0..<100 {
            let owner = try await fixture.probe.nameOwner("org.traitd.Layout1")
            let client = try TraitClient(bus: .address(fixture.bus.address))
            let count = 1 + commands.random.below(12)
            var sent = 0
            var adapterOf: Set<String> = []
            while sent < count {
                let command = commands.next(in: model.state)
                // A divider drag and its steps are not a change of the saved state until it ends.
                if case .beginDividerDrag = command { continue }
                var next = model
                guard (try? next.apply(command)) != nil else { continue }
                try await Self.send(command, client, adapterOf: &adapterOf)
                model = next
                sent += 1
            }
            // The moment the last reply is in.
            fixture.daemon.kill(SIGKILL)
            acknowledged += sent
            client.close()
            try await fixture.restart(after: SIGKILL, previousOwner: owner)
            // A restart ends a live resize: the window keeps its size and is active again, as the model's own
            // start from the same state makes it.
            if model.resizing != nil {
                model = try Simulation(catalog: catalog, state: model.state, settings: model.settings,
                                       windowedLimit: model.windowedLimit)
            }
            let reader = try TraitClient(bus: .address(fixture.bus.address))
            let restored = try await reader.state()
            reader.close()
            try #require(DurableView(restored) == DurableView(model),
                         "round \(round): the restarted daemon lost acknowledged changes:\n\(DurableView(restored))\nexpected\n\(DurableView(model))\n\(fixture.daemon.standardError)")
        }
        print("DurabilityTests: 100 kills, \(acknowledged) acknowledged commands, 0 lost")
    }

    /// `{Appearance: <42>, Appearance: <"dark">}` (busctl, sd-bus, sends it as written): refused by name,
    /// nothing changes; the same for the other dictionaries the contract reads.
    @Test func aDictionaryWithARepeatedKeyIsRefusedNamingTheKey() async throws {
        let fixture = try await DaemonFixture()
        let before = try await fixture.dbusSend("GetState")
        let calls: [(path: String, interface: String, member: String, arguments: [String], key: String)] = [
            ("/org/traitd/Layout1", "org.traitd.Layout1.Display", "SetTraits",
             ["a{sv}", "2", "Appearance", "u", "42", "Appearance", "s", "dark"], "Appearance"),
            ("/org/traitd/Layout1", "org.traitd.Layout1.Display", "SetTraits",
             ["a{sv}", "2", "Appearance", "s", "dark", "Appearance", "s", "light"], "Appearance"),
            ("/org/traitd/Layout1/window/mail", "org.traitd.Layout1.Window", "SetRestorationState",
             ["a{sv}", "2", "tab", "s", "inbox", "tab", "s", "drafts"], "tab"),
            ("/org/traitd/Layout1/window/mail", "org.traitd.Layout1.Window", "ReportLayout",
             ["tsa{s(dddd)}a{sv}", "0", "probe", "2", "button", "0", "0", "10", "10", "button", "1", "1", "5", "5", "0"], "button"),
            ("/org/traitd/Layout1/window/mail", "org.traitd.Layout1.Window", "ReportLayout",
             ["tsa{s(dddd)}a{sv}", "0", "probe", "0", "2", "note", "s", "a", "note", "s", "b"], "note"),
        ]
        // ReportLayout needs a registered adapter of the caller's: busctl registers none, so its refusal would
        // name the adapter first; the repeated key is found earlier, when the arguments are decoded.
        for call in calls {
            let result = try await fixture.busctl(["call", "org.traitd.Layout1", call.path, call.interface, call.member] + call.arguments)
            #expect(result.status != 0, "\(call.member) \(call.arguments) must fail")
            #expect(result.stderr.contains("the key '\(call.key)' appears twice"), "\(call.member): \(result.stderr)")
        }
        let after = try await fixture.dbusSend("GetState")
        #expect(after.stdout.split(separator: "\n").dropFirst() == before.stdout.split(separator: "\n").dropFirst())
        #expect(fixture.daemon.isRunning)
    }

    /// What a restart must bring back: everything the state file keeps, as the bus shows it (not the
    /// serial, nor whether a window is being resized: a restart ends a resize or a drag).
    struct DurableView: Equatable, CustomStringConvertible {
        var device: String
        var orientation: String
        var arrangement: String
        var windowing: String
        var traits: String
        var displays: [String]
        var background: [String]
        var stacking: [String]
        var frames: [String]

        init(_ snapshot: DisplaySnapshot) {
            device = snapshot.device
            orientation = snapshot.orientation.rawValue
            arrangement = snapshot.arrangement.rawValue
            windowing = snapshot.windowing.rawValue
            traits = snapshot.traits.description
            displays = snapshot.displays
            background = snapshot.backgroundApps
            stacking = snapshot.stacking
            frames = snapshot.windows.map { "\($0.app) \($0.frame)" }
        }

        init(_ model: Simulation) {
            device = model.state.device
            orientation = model.state.orientation.rawValue
            arrangement = model.state.arrangement.rawValue
            windowing = model.state.windowing.rawValue
            traits = model.state.traits.description
            displays = model.state.displays.map(\.id)
            background = model.backgroundApps
            stacking = model.stacking
            frames = model.appNames.map { "\($0) \(model.windows[$0]!.frame)" }
        }

        var description: String {
            "\(device) \(orientation) \(arrangement) \(windowing) displays \(displays) background \(background) "
                + "stacking \(stacking)\n  \(traits)\n  \(frames.joined(separator: "; "))"
        }
    }

    /// `command` sent as its D-Bus call, through the Swift client.
    /// Sends `command`; an app's declaration from `client` as its adapter (registered the first time in
    /// `adapterOf`, the apps it is the adapter of), as only a window's adapter may declare.
    static func send(_ command: Command, _ client: TraitClient, adapterOf: inout Set<String>) async throws {
        switch command {
        case .setSizeRestrictions(let app, _), .setSupportedOrientations(let app, _), .requestGeometryUpdate(let app, _),
             .setBreakpoints(let app, _), .setTraitOverrides(let app, _):
            if adapterOf.insert(app).inserted { try await client.registerAdapter("walker", for: app) }
        default: break
        }
        switch command {
        case .setDevice(let id): _ = try await client.setDevice(id)
        case .rotate(let orientation): _ = try await client.rotate(to: orientation)
        case .setArrangement(let arrangement): _ = try await client.setArrangement(arrangement)
        case .openApp(let app, let role): _ = try await client.openApp(app, role: role)
        case .closeApp(let app): _ = try await client.closeApp(app)
        case .beginDividerDrag: _ = try await client.beginDividerDrag()
        case .moveDivider(let x): _ = try await client.moveDivider(to: x)
        case .endDividerDrag: _ = try await client.endDividerDrag()
        case .setTraits(let changes): _ = try await client.setTraits(changes)
        case .setWindowing(let mode): _ = try await client.setWindowing(mode)
        case .setFrame(let app, let frame): _ = try await client.setFrame(frame, of: app)
        case .tile(let app, let position): _ = try await client.tile(app, position)
        case .raise(let app): _ = try await client.raise(app)
        case .beginResize(let app): _ = try await client.beginResize(app)
        case .resizeTo(let app, let size): _ = try await client.resize(app, to: size)
        case .endResize(let app): _ = try await client.endResize(app)
        case .setBreakpoints(let app, let breakpoints): _ = try await client.setBreakpoints(of: app, breakpoints.mapValues(\.description))
        case .setTraitOverrides(let app, let request): _ = try await client.setTraitOverrides(of: app, request)
        case .connectDisplay(let profile): _ = try await client.connectDisplay(profile)
        case .disconnectDisplay(let id): _ = try await client.disconnectDisplay(id)
        case .moveToDisplay(let app, let display): _ = try await client.move(app, toDisplay: display)
        case .setKeyboard(let mode): _ = try await client.setKeyboard(mode)
        case .setSizeRestrictions(let app, let restrictions):
            _ = try await client.setSizeRestrictions(of: app, minimum: restrictions.minimum, maximum: restrictions.maximum)
        case .setSupportedOrientations(let app, let orientations): _ = try await client.setSupportedOrientations(of: app, orientations)
        case .requestGeometryUpdate(let app, let request): _ = try await client.requestGeometryUpdate(of: app, request)
        case .restore: Issue.record("a restore is the Testing interface's, not a random walk's")
        }
    }
}
