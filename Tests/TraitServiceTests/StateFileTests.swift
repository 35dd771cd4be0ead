import DBus
import Foundation
import StateStore
import TestSupport
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// The state file's edge (`RestoredState.make`): every state the commands reach loads back equal, and a file
/// that breaks a rule is refused with the field named, never trapped on.
@Suite struct StateFileTests {
    static let catalog = try! ProfileLoader.catalog()
    static let context = RestoredState.Context(catalog: catalog)

    /// Four windows on the iPad's stage and one on a 1440p monitor, in Stage Manager, dark: a state the
    /// commands reach (`stageManagerWithAMonitorIsReachedAndReloads`), and the base the refusals below break.
    static var stageWithMonitor: [String: Any] { [
        "version": 1, "restoration": [String: String](),
        "display": [
            "device": "ipad-pro-11-m4", "orientation": "landscape-left", "arrangement": "split-two-thirds",
            "windowing": "stage-manager", "traits": ["appearance": "dark"],
            "apps": ["mail", "notes", "maps", "music", "photos"].map { ["name": $0, "role": "window"] },
            "background": ["books"],
            "frames": Dictionary(uniqueKeysWithValues: ["mail", "notes", "maps", "music", "photos"].enumerated().map {
                ($1, ["x": 32 * $0, "y": 32 * $0, "width": 600, "height": 500])
            }),
            "stacking": ["photos", "mail", "notes", "maps", "music"],
            "displays": [["id": "external-1", "profile": "external-1440p"]],
            "placement": ["photos": "external-1"],
        ] as [String: Any],
    ] }

    static func file(_ change: (inout [String: Any]) -> Void = { _ in }) -> Data {
        var display = stageWithMonitor["display"] as! [String: Any]
        change(&display)
        var top = stageWithMonitor
        top["display"] = display
        return try! JSONSerialization.data(withJSONObject: top)
    }

    @Test func stageManagerWithAMonitorIsReachedAndReloads() throws {
        // Reached by commands: 5 windows, one moved to the monitor (each screen's stage holds 4).
        var sim = try Simulation(catalog: Self.catalog, state: DisplayState(
            device: "ipad-pro-11-m4", orientation: .landscapeLeft, arrangement: .full, apps: [.init(name: "mail", role: .primary)]))
        for command: Command in [.setWindowing(.stageManager), .connectDisplay(profile: "external-1440p"),
                                 .openApp("photos", .window), .moveToDisplay(app: "photos", display: "external-1"),
                                 .openApp("notes", .window), .openApp("maps", .window), .openApp("music", .window)] {
            _ = try sim.apply(command)
        }
        #expect(sim.state.stacking.count == 5 && sim.state.placement == ["photos": "external-1"])
        let reloaded = try Self.reload(sim.state)
        #expect(reloaded == sim.state)
        // And the file written by hand in the same shape.
        let restored = try RestoredState.make(from: Self.file(), Self.context)
        #expect(restored.simulation.state.stage(on: ConnectedDisplay.device).count == 4)
        #expect(restored.simulation.state.stage(on: "external-1") == ["photos"])
    }

    /// Each of the issue's files, refused with its field and what was expected there.
    @Test(arguments: [
        ("two displays with one id", "display.displays[1].id", "each display has its own id; 'external-1' is also displays[0]'s"),
        ("a display with id device", "display.displays[0].id", "an id of the form external-N (N from 1); got 'device'"),
        ("an unknown display profile", "display.displays[0].profile", "unknown display profile 'external-8k'"),
        ("placement in split-view", "display.placement.mail", "windows are placed on displays only in stage-manager or windowed"),
        ("placement on an unconnected display", "display.placement.photos", "a connected display (device, external-1); got 'external-7'"),
        ("20 background apps with a duplicate", "display.background[3]", "each app waits in the background once; 'app0' is also background[0]"),
        ("20 background apps with a duplicate", "display.background", "at most 8 apps wait in the background; got 20"),
        ("three displays", "display.displays", "an iPad drives at most 1 external display; got 3"),
        ("five windows on the iPad's stage", "display.stacking", "at most 4 windows on the device screen's stage in stage-manager windowing; got 5"),
        ("a frame of zero width", "display.frames.mail", "finite numbers and a positive size; got (0, 0, 0, 500)"),
        ("an app open twice", "display.apps[5].name", "each app is open once; 'mail' is also apps[0]"),
    ])
    func aFileThatBreaksARuleIsRefusedWithItsField(what: String, field: String, expected: String) throws {
        let data = Self.file { display in
            switch what {
            case "two displays with one id":
                display["displays"] = [["id": "external-1", "profile": "external-1440p"], ["id": "external-1", "profile": "external-4k"]]
            case "a display with id device":
                display["displays"] = [["id": "device", "profile": "external-1440p"]]
                display["placement"] = [String: String]()
            case "an unknown display profile": display["displays"] = [["id": "external-1", "profile": "external-8k"]]
            case "placement in split-view":
                display["windowing"] = "split-view"
                display["apps"] = [["name": "mail", "role": "primary"], ["name": "notes", "role": "secondary"]]
                display["stacking"] = [String]()
                display["placement"] = ["mail": "external-7"]
            case "placement on an unconnected display": display["placement"] = ["photos": "external-7"]
            case "20 background apps with a duplicate":
                display["background"] = (0..<19).map { "app\($0)" }.enumerated().map { $0.offset == 3 ? "app0" : $0.element } + ["app19"]
            case "three displays":
                display["displays"] = (1...3).map { ["id": "external-\($0)", "profile": "external-1080p"] }
            case "five windows on the iPad's stage": display["placement"] = [String: String]()
            case "a frame of zero width":
                var frames = display["frames"] as! [String: Any]
                frames["mail"] = ["x": 0, "y": 0, "width": 0, "height": 500]
                display["frames"] = frames
            case "an app open twice":
                display["apps"] = (display["apps"] as! [[String: String]]) + [["name": "mail", "role": "window"]]
            default: Issue.record("no case \(what)")
            }
        }
        do {
            _ = try RestoredState.make(from: data, Self.context)
            Issue.record("\(what): loaded")
        } catch {
            let found = error.problems.first { $0.field == field }
            #expect(found?.expected.contains(expected) == true, "\(what): \(error.problems)")
        }
    }

    /// A setting, or a value, that this version does not know (a later version's) is dropped and named; the
    /// rest of the file loads.
    @Test func aLaterVersionsSettingIsDroppedAndNamed() throws {
        let data = Self.file { $0["traits"] = ["appearance": "purple", "sparkle": "on", "contrast": "high"] }
        let restored = try RestoredState.make(from: data, Self.context)
        #expect(restored.simulation.state.traits[.contrast] == "high" && restored.simulation.state.traits[.appearance] == "light")
        #expect(restored.droppedSettings.map(\.field).sorted() == ["display.traits.appearance", "display.traits.sparkle"])
        #expect(restored.droppedSettings.contains { $0.expected == "one of light, dark; got 'purple'" })
    }

    /// Any state a random walk of commands reaches, saved as traitd saves it and loaded as it starts, is the
    /// same state: the load holds files to exactly the rules the commands keep (the per-screen stage limit
    /// once differed, and a Stage Manager state with a monitor was thrown away at every restart).
    @Test func everyStateTheCommandsReachReloadsEqual() throws {
        var checked = 0
        var applied = 0
        for seed in UInt64(1)...400 {
            var sim = try Simulation(catalog: Self.catalog, state: DisplayState(
                device: "ipad-pro-11-m4", orientation: .landscapeLeft, arrangement: .splitHalf,
                apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
            var commands = RandomCommands(seed: seed)
            var walk: [Command] = []
            for _ in 0..<60 {
                let command = commands.next(in: sim.state)
                walk.append(command)
                guard (try? sim.apply(command)) != nil else { continue }
                applied += 1
                let problems = Simulation.problems(in: sim.state, profile: sim.profile, windowedLimit: sim.windowedLimit)
                try #require(problems.isEmpty, "seed \(seed) after \(walk): \(problems)")
                let reloaded = try Self.reload(sim.state)
                try #require(reloaded == sim.state, "seed \(seed) after \(walk):\n\(sim.state)\nreloaded as\n\(reloaded)")
                checked += 1
            }
        }
        print("StateFileTests: \(checked) states reached by \(applied) accepted commands reloaded equal")
        #expect(checked > 6000)
    }

    /// `state` saved as traitd saves it (`SavedState`, JSON) and loaded as traitd starts.
    static func reload(_ state: DisplayState) throws -> DisplayState {
        let data = try JSONEncoder().encode(try SavedState(display: state, restoration: [:]))
        return try RestoredState.make(from: data, context).simulation.state
    }
}
