import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// iPadOS 26's window controls: on a free-form window that does not fill its screen, at its top leading corner,
/// adding nothing to the safe area; the corner-adapted insets beside it.
@Suite struct WindowControlsModelTests {
    let catalog = try! ProfileLoader.catalog()

    func stage(_ device: String = "ipad-9.7") throws -> Simulation {
        var state = DisplayState(device: device, orientation: .landscapeLeft, arrangement: .splitTwoThirds,
                                 apps: [.init(name: "mail", role: .window), .init(name: "notes", role: .window)])
        state.windowing = .stageManager
        state.frames = ["mail": Rect(x: 100, y: 50, width: 600, height: 500), "notes": Rect(x: 300, y: 200, width: 500, height: 400)]
        state.stacking = ["mail", "notes"]
        return try Simulation(catalog: catalog, state: state)
    }

    @Test func aStageWindowHasControlsAtItsTopLeadingCorner() throws {
        var sim = try stage()
        let mail = try #require(sim.windows["mail"])
        #expect(mail.windowControls == Rect(x: 0, y: 0, width: 80, height: 32))
        // They add nothing to the safe area (the window is below the status bar: none), and the adapted insets
        // push the leading edge past them, or the top below them.
        #expect(mail.safeArea == .zero)
        #expect(mail.cornerAdaptedInsets.horizontal == EdgeInsets(top: 0, left: 80, bottom: 0, right: 0))
        #expect(mail.cornerAdaptedInsets.vertical == EdgeInsets(top: 32, left: 0, bottom: 0, right: 0))
        // Right to left: the top right corner.
        _ = try sim.step(.setTraits([.direction: "right-to-left"]))
        #expect(sim.windows["mail"]?.windowControls == Rect(x: 520, y: 0, width: 80, height: 32))
        #expect(sim.windows["mail"]?.cornerAdaptedInsets.horizontal == EdgeInsets(top: 0, left: 0, bottom: 0, right: 80))
        // A window that fills the screen has none, and its adapted insets are its safe area (the status bar).
        let plan = try sim.step(.tile(app: "mail", .full))
        let full = try #require(sim.windows["mail"])
        #expect(full.windowControls == nil && full.cornerAdaptedInsets.vertical == full.safeArea && full.safeArea.top == 20)
        #expect(plan.windows.first { $0.app == "mail" }?.after?.changes(from: mail).contains(.windowControls) == true)
    }

    @Test func splitViewWindowsHaveNone() throws {
        let sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .splitTwoThirds,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
        #expect(sim.windows.values.allSatisfy { $0.windowControls == nil && $0.cornerAdaptedInsets.horizontal == $0.safeArea })
    }
}
