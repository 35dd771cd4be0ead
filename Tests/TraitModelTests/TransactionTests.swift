import TestSupport
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// Commands are transactions, and the rules hold at every change: random walks of every kind of command (the
/// keyboard and what apps declare and ask included), from several starts.
@Suite struct TransactionTests {
    let catalog = try! ProfileLoader.catalog()

    /// Everything a refusal must leave as it was.
    struct Observed: Equatable {
        var state: DisplayState
        var windows: [String: WindowGeometry]
        var serial: UInt64
        var drag: DividerDrag?
        var resizing: String?

        init(_ simulation: Simulation) {
            state = simulation.state
            windows = simulation.windows
            serial = simulation.serial
            drag = simulation.drag
            resizing = simulation.resizing
        }
    }

    func start(_ seed: UInt64) throws -> Simulation {
        let devices = ["ipad-9.7", "ipad-pro-11-m4", "iphone-15"]
        return try Simulation(catalog: catalog, state: DisplayState(
            device: devices[Int(seed % 3)], orientation: .landscapeLeft, arrangement: .full,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
    }

    /// Every refused command leaves the state, the windows, the Serial, the drag and the resize as they were
    /// (a geometry request once turned the display and then refused its size, keeping the turn).
    @Test func everyRefusalChangesNothing() throws {
        var refused = 0, declarations = 0
        for seed in UInt64(1)...300 {
            var sim = try start(seed)
            var commands = RandomCommands(seed: seed)
            var walk: [Command] = []
            for _ in 0..<60 {
                let command = commands.next(in: sim.state)
                walk.append(command)
                let before = Observed(sim)
                do {
                    _ = try sim.apply(command)
                } catch {
                    refused += 1
                    switch command {
                    case .setSizeRestrictions, .setSupportedOrientations, .requestGeometryUpdate: declarations += 1
                    default: break
                    }
                    try #require(Observed(sim) == before, "seed \(seed): \(command) was refused (\(error.message)) and changed the state, after \(walk.dropLast())")
                }
            }
        }
        print("TransactionTests: \(refused) refusals, \(declarations) of declarations and geometry requests, changed nothing")
        #expect(refused > 3000 && declarations > 300)
    }

    /// After every accepted command, each free-form window is within the size restrictions its app declared,
    /// as far as its screen allows: the rule is the model's, whatever the change (a rotation, a device, the
    /// windowing mode, a display, a restore), not each command's.
    @Test func sizeRestrictionsHoldAfterEveryChange() throws {
        var checked = 0
        for seed in UInt64(1)...300 {
            var sim = try start(seed)
            var commands = RandomCommands(seed: seed &+ 1000)
            var walk: [Command] = []
            for _ in 0..<60 {
                let command = commands.next(in: sim.state)
                walk.append(command)
                guard (try? sim.apply(command)) != nil, sim.resizing == nil else { continue }
                for app in sim.state.apps where app.role == .window {
                    guard let restrictions = sim.state.declarations[app.name]?.sizeRestrictions,
                          let frame = sim.windows[app.name]?.frame else { continue }
                    let held = restrictions.clamp(frame.size)
                    let screen = sim.screen(of: app.name), smallest = sim.profile.freeForm.minimumSize
                    // The smallest window and then the screen win over the restrictions (`FreeFormRules.fit`).
                    let expected = Size(width: min(max(held.width, smallest.width), screen.width),
                                        height: min(max(held.height, smallest.height), screen.height))
                    try #require(abs(frame.width - expected.width) < 0.5 && abs(frame.height - expected.height) < 0.5,
                                 "seed \(seed): \(app.name) is \(frame) with \(restrictions) after \(walk)")
                    checked += 1
                }
            }
        }
        print("TransactionTests: \(checked) free-form windows with restrictions held after a change")
        #expect(checked > 200)
    }

    /// Another device keeps the interface where the app that owns the screen there supports it: mail declared
    /// portrait only while the iPad's split made it no owner; on a phone it owns the screen (the device change
    /// once turned to the nearest orientation, landscape, as if no app had declared anything).
    @Test func anotherDeviceKeepsTheScreenOwnersOrientations() throws {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .splitTwoThirds,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
        _ = try sim.apply(.setSupportedOrientations(app: "mail", [.portrait]))
        #expect(sim.state.orientation == .landscapeLeft, "in a split mail owns nothing")
        _ = try sim.apply(.setDevice("iphone-15"))
        #expect(sim.state.orientation == .portrait)
    }

    /// What apps declared is held to the commands' rules when a state comes from a file: a minimum above the
    /// maximum, a negative size, a maximum below the device's smallest window, an orientation given twice are
    /// each named by field.
    @Test func declarationsFromAFileAreCheckedByField() {
        var state = DisplayState(device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .full,
                                 apps: [.init(name: "mail", role: .primary)])
        state.declarations["mail"] = SceneDeclarations(
            sizeRestrictions: SizeRestrictions(minimum: Size(width: 700, height: 400), maximum: Size(width: 500, height: 600)),
            supportedOrientations: [.portrait, .portrait])
        let profile = try! catalog.profile("ipad-9.7")
        let problems = Simulation.problems(in: state, profile: profile, windowedLimit: 8).map(\.field)
        #expect(problems == ["declarations.mail.sizeRestrictions", "declarations.mail.supportedOrientations"], "\(problems)")
        state.declarations["mail"] = SceneDeclarations(sizeRestrictions: SizeRestrictions(
            minimum: Size(width: -1, height: 0), maximum: Size(width: 500, height: 600)))
        #expect(Simulation.problems(in: state, profile: profile, windowedLimit: 8).map(\.field) == ["declarations.mail.sizeRestrictions"])
        // SetSizeRestrictions refuses a maximum below the smallest window (320 pt here); a file once passed it,
        // and the window was given a frame above its own maximum.
        state.declarations["mail"] = SceneDeclarations(sizeRestrictions: SizeRestrictions(
            minimum: Size(width: 100, height: 100), maximum: Size(width: 200, height: 200)))
        let below = Simulation.problems(in: state, profile: profile, windowedLimit: 8)
        #expect(below.map(\.field) == ["declarations.mail.sizeRestrictions"])
        #expect(below.first?.expected.contains("leaves it no size") == true, "\(below)")
    }

    /// Restrictions whose minimum is larger than the screen: the screen wins, and the window's own frame (the
    /// screen) is accepted by SetFrame, which once refused it as outside the restrictions.
    @Test func aMinimumLargerThanTheScreenLeavesTheScreen() throws {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .full, apps: [.init(name: "mail", role: .primary)]))
        _ = try sim.apply(.setWindowing(.stageManager))
        _ = try sim.apply(.setSizeRestrictions(app: "mail", SizeRestrictions(minimum: Size(width: 5000, height: 5000),
                                                                             maximum: Size(width: 6000, height: 6000))))
        #expect(sim.windows["mail"]?.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
        _ = try sim.apply(.setFrame(app: "mail", Rect(x: 0, y: 0, width: 1024, height: 768)))
        #expect(throws: ModelError.self) { _ = try sim.apply(.setFrame(app: "mail", Rect(x: 0, y: 0, width: 800, height: 600))) }
    }
}
