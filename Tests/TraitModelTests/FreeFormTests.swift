import Foundation
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// Free-form windows in the model: the windowing mode both ways, frames and their refusals, tiles, raising,
/// a live resize across the size-class threshold, the stage's limit, rotation, and the saved state.
@Suite struct FreeFormTests {
    let catalog = try! ProfileLoader.catalog()

    /// mail (primary, 694 wide) and notes (secondary, 320) in a 2/3 split on the 9.7" iPad in landscape, then
    /// Stage Manager.
    func stage(_ device: String = "ipad-9.7") throws -> Simulation {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: device, orientation: .landscapeLeft, arrangement: .splitTwoThirds,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
        _ = try sim.step(.setWindowing(.stageManager))
        return sim
    }

    @Test func splitSidesKeepTheirFramesAsWindowsAndComeBack() throws {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .splitHalf,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
        let before = sim.windows
        let plan = try sim.step(.setWindowing(.stageManager))
        // The same frames: no size changes. Both windows get their window controls (a transition each, to lay out
        // around them), and notes, now behind mail, looks inactive: its trait transition.
        #expect(plan.displayChanges.isSuperset(of: [.windowing, .divider]))
        #expect(plan.transitions.map(\.app) == ["mail", "notes"] && plan.transitions.allSatisfy { !$0.sizeChanged && $0.cornerAdaptedInsetsChanged })
        #expect(!plan.transitions[0].traitsChanged && plan.transitions[1].traitsChanged)
        #expect(sim.windows["notes"]?.traits.activeAppearance == .inactive && sim.windows["mail"]?.traits.activeAppearance == .active)
        #expect(sim.windows["mail"]?.frame == before["mail"]?.frame && sim.windows["notes"]?.frame == before["notes"]?.frame)
        #expect(sim.windows.values.allSatisfy { $0.role == .window && $0.state == .active })
        #expect(sim.stacking == ["mail", "notes"] && sim.dividerPosition == 0)
        // Back: the front window is the primary, the arrangement the one the display had.
        _ = try sim.step(.raise(app: "notes"))
        _ = try sim.step(.setWindowing(.splitView))
        #expect(sim.state.arrangement == .splitHalf && sim.state.app(holding: .primary)?.name == "notes")
        #expect(sim.windows["notes"]?.frame == Rect(x: 0, y: 0, width: 507, height: 768))
    }

    @Test func phonesOfferSplitViewOnlyAndARefusalChangesNothing() throws {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "iphone-15", orientation: .portrait, arrangement: .full, apps: [.init(name: "mail", role: .primary)]))
        let serial = sim.serial
        #expect(throws: ModelError.notOffered("iphone-15 offers only split-view windowing; stage-manager and windowed are the iPad's")) {
            _ = try sim.step(.setWindowing(.stageManager))
        }
        #expect(sim.serial == serial && sim.state.windowing == .splitView)
        // An iPad in Stage Manager that becomes a phone goes back to Split View.
        var pad = try stage()
        _ = try pad.step(.setDevice("iphone-15"))
        #expect(pad.state.windowing == .splitView && pad.state.app(holding: .primary)?.name == "mail")
        #expect(pad.backgroundApps == ["notes"], "a phone has no room for the second app")
    }

    @Test func framesAreCheckedAgainstTheMinimumAndTheScreen() throws {
        var sim = try stage()
        let serial = sim.serial
        let refusals: [(Rect, String)] = [
            (Rect(x: 0, y: 0, width: 100, height: 400), "a window's size must be from 320 x 320 to the screen's 1024 x 768 pt; got 100 x 400"),
            (Rect(x: 0, y: 0, width: 1100, height: 400), "a window's size must be from 320 x 320 to the screen's 1024 x 768 pt; got 1100 x 400"),
            (Rect(x: 500, y: 0, width: 600, height: 700),
             "a 600 x 700 window must lie inside the 1024 x 768 screen: x from 0 to 424, y from 0 to 68; got x 500, y 0"),
            (Rect(x: -1, y: 0, width: 600, height: 700),
             "a 600 x 700 window must lie inside the 1024 x 768 screen: x from 0 to 424, y from 0 to 68; got x -1, y 0"),
        ]
        for (frame, message) in refusals {
            #expect(throws: ModelError.outOfRange(message)) { _ = try sim.step(.setFrame(app: "mail", frame)) }
        }
        #expect(throws: ModelError.outOfRange("the frame's numbers must be finite; got (0, 0, nan, 400)")) {
            _ = try sim.step(.setFrame(app: "mail", Rect(x: 0, y: 0, width: .nan, height: 400)))
        }
        #expect(sim.serial == serial, "refusals change nothing")
        // A move alone is a property change; a new size across the threshold a trait transition.
        let move = try sim.step(.setFrame(app: "mail", Rect(x: 20, y: 30, width: 694, height: 700)))
        #expect(move.transitions.map(\.app) == ["mail"] && move.transitions[0].steps.all.first?.description == "viewWillTransitionToSize"
                && move.transitions[0].steps.size == Size(width: 694, height: 700))
        let narrow = try sim.step(.setFrame(app: "mail", Rect(x: 20, y: 30, width: 677, height: 700)))
        #expect(sim.windows["mail"]?.traits.horizontalSizeClass == .compact, "677 < 678: compact")
        #expect(narrow.transitions[0].steps.all.first == .willTransitionToTraits(sim.windows["mail"]!.traits))
        _ = try sim.step(.setFrame(app: "mail", Rect(x: 0, y: 0, width: 678, height: 700)))
        #expect(sim.windows["mail"]?.traits.horizontalSizeClass == .regular, "678: regular")
        #expect(sim.windows["mail"]?.safeArea == EdgeInsets(top: 20, left: 0, bottom: 0, right: 0), "touches the top edge only")
    }

    @Test func tilesLeaveTheGapBetweenThem() throws {
        var sim = try stage()
        _ = try sim.step(.tile(app: "mail", .leftHalf))
        _ = try sim.step(.tile(app: "notes", .rightHalf))
        #expect(sim.windows["mail"]?.frame == Rect(x: 0, y: 0, width: 507, height: 768))
        #expect(sim.windows["notes"]?.frame == Rect(x: 517, y: 0, width: 507, height: 768))
        #expect(sim.windows["notes"]?.safeArea == EdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
        let profile = catalog.profiles["ipad-9.7"]!
        let screen = Size(width: 1024, height: 768)
        #expect(profile.freeForm.tile(.bottomRight, screen: screen) == Rect(x: 517, y: 389, width: 507, height: 379))
        #expect(profile.freeForm.tile(.topLeft, screen: screen) == Rect(x: 0, y: 0, width: 507, height: 379))
        #expect(profile.freeForm.tile(.full, screen: screen) == Rect(x: 0, y: 0, width: 1024, height: 768))
    }

    /// iPadOS 26 keeps a resizing window active and says so with `isInteractivelyResizing`; it comes to the front,
    /// so it looks active too.
    @Test func aLiveResizeStaysActiveIsClampedAndCrossesTheThreshold() throws {
        var sim = try stage()
        _ = try sim.step(.setFrame(app: "notes", Rect(x: 100, y: 100, width: 600, height: 500)))
        let begin = try sim.step(.beginResize(app: "notes"))
        #expect(begin.windows.allSatisfy { $0.lifecycle.isEmpty } && sim.stacking.first == "notes")
        #expect(sim.windows["notes"]?.interactivelyResizing == true && sim.windows["notes"]?.traits.activeAppearance == .active)
        #expect(sim.windows["mail"]?.traits.activeAppearance == .inactive)
        #expect(throws: ModelError.dragging("window 'notes' is being resized; end the resize with its EndResize first")) {
            _ = try sim.step(.setArrangement(.full))
        }
        #expect(throws: ModelError.notDragging("window 'mail' is not being resized; window 'notes' is (start with its BeginResize)")) {
            _ = try sim.step(.resizeTo(app: "mail", Size(width: 700, height: 500)))
        }
        let step = try sim.step(.resizeTo(app: "notes", Size(width: 650, height: 500)))
        #expect(step.transitions.map(\.context.duration) == [0] && step.transitions[0].context.reason == .resize)
        #expect(sim.windows["notes"]?.state == .active)
        let across = try sim.step(.resizeTo(app: "notes", Size(width: 700, height: 500)))
        #expect(across.transitions[0].traitsChanged && sim.windows["notes"]?.traits.horizontalSizeClass == .regular)
        // Past the screen's right edge and below the minimum, the window stops.
        _ = try sim.step(.resizeTo(app: "notes", Size(width: 5000, height: 10)))
        #expect(sim.windows["notes"]?.frame == Rect(x: 100, y: 100, width: 924, height: 320))
        let end = try sim.step(.endResize(app: "notes"))
        #expect(end.transitions.isEmpty && end.windows.allSatisfy { $0.lifecycle.isEmpty })
        #expect(sim.windows["notes"]?.state == .active && sim.windows["notes"]?.interactivelyResizing == false && sim.resizing == nil)
    }

    @Test func aFifthWindowSendsTheLeastRecentToTheBackground() throws {
        var sim = try stage()
        for app in ["maps", "music"] { _ = try sim.step(.openApp(app, .window)) }
        _ = try sim.step(.raise(app: "mail"))
        #expect(sim.stacking == ["mail", "music", "maps", "notes"])
        let fifth = try sim.step(.openApp("photos", .window))
        #expect(sim.stacking == ["photos", "mail", "music", "maps"] && sim.backgroundApps == ["notes"])
        #expect(fifth.windows.first { $0.app == "notes" }?.lifecycle == [.willResignActive, .didEnterBackground])
        #expect(fifth.closed == ["notes"] && fifth.opened == ["photos"])
        // It comes back where it was.
        let notesFrame = Rect(x: 320 + 10, y: 0, width: 320, height: 768)
        _ = try sim.step(.openApp("notes", .window))
        #expect(sim.windows["notes"]?.frame.width == 320 && sim.windows["notes"]?.frame.height == notesFrame.height)
        #expect(sim.backgroundApps == ["maps"], "the least recent left in its turn")
        // Picture in Picture floats over the stage and does not count.
        _ = try sim.step(.openApp("video", .pip))
        #expect(sim.stacking.first == "video" && sim.state.stacking.count == 4)
        // Arrangements and Split View roles belong to the other windowing.
        #expect(throws: ModelError.self) { _ = try sim.step(.setArrangement(.splitHalf)) }
        #expect(throws: ModelError.self) { _ = try sim.step(.openApp("files", .secondary)) }
    }

    @Test func windowedModeHasItsOwnLimit() throws {
        var sim = try stage()
        sim.windowedLimit = 3
        _ = try sim.step(.setWindowing(.windowed))
        for app in ["a", "b", "c"] { _ = try sim.step(.openApp(app, .window)) }
        #expect(sim.state.stacking == ["c", "b", "a"] && sim.backgroundApps == ["notes", "mail"], "oldest first")
    }

    @Test func newWindowsCascadeAndRotationKeepsWindowsOnScreen() throws {
        var sim = try stage()
        _ = try sim.step(.openApp("maps", .window))
        #expect(sim.windows["maps"]?.frame == Rect(x: 64, y: 64, width: 683, height: 576), "2/3 x 3/4, two steps in")
        _ = try sim.step(.setFrame(app: "maps", Rect(x: 300, y: 100, width: 700, height: 600)))
        _ = try sim.step(.rotate(.portrait))
        let frame = try #require(sim.windows["maps"]?.frame)
        #expect(frame == Rect(x: 68, y: 100, width: 700, height: 600), "moved left to stay on the 768 pt wide screen")
    }

    @Test func theStateKeepsFramesAndStackingAndOldFilesLoad() throws {
        var sim = try stage()
        _ = try sim.step(.setFrame(app: "notes", Rect(x: 10, y: 20, width: 400, height: 500)))
        let data = try JSONEncoder().encode(sim.state)
        let back = try JSONDecoder().decode(DisplayState.self, from: data)
        #expect(back == sim.state && back.windowing == .stageManager && back.stacking == ["mail", "notes"], "a frame alone does not raise")
        let restored = try Simulation(catalog: catalog, state: back)
        #expect(restored.windows == sim.windows)
        // A Split View state writes no free-form keys: files read by the version before stay as they were.
        let split = DisplayState(device: "ipad-9.7", orientation: .portrait, arrangement: .full, apps: [])
        let text = String(decoding: try JSONEncoder().encode(split), as: UTF8.self)
        #expect(!text.contains("windowing") && !text.contains("frames") && !text.contains("stacking"))
    }

    @Test func aConfigCanStartInStageManager() throws {
        let config = try DaemonConfig(
            text: "display: { windowing: stage-manager }\nwindowing: { windowed-limit: 5 }\n", file: "test.yaml",
            base: .embedded())
        let sim = try config.makeSimulation(catalog: catalog)
        #expect(sim.state.windowing == .stageManager && sim.windowedLimit == 5)
        #expect(sim.state.stacking == ["mail", "notes"] && sim.windows.values.allSatisfy { $0.role == .window })
        #expect(sim.windows["notes"]?.frame == Rect(x: 0, y: 0, width: 683, height: 576))
        #expect(sim.windows["mail"]?.frame == Rect(x: 32, y: 32, width: 683, height: 576))
    }

    @Test func aSecondDisplayTakesWindowsAndGivesThemBack() throws {
        var sim = try stage()
        #expect(throws: ModelError.invalidArgument("unknown display profile 'tv'; expected one of: external-1080p, external-1440p, external-4k")) {
            _ = try sim.step(.connectDisplay(profile: "tv"))
        }
        let connect = try sim.step(.connectDisplay(profile: "external-1080p"))
        #expect(connect.displayChanges.contains(.displays) && connect.transitions.isEmpty)
        #expect(sim.state.displays == [ConnectedDisplay(id: "external-1", profile: "external-1080p")])
        #expect(throws: ModelError.self) { _ = try sim.step(.connectDisplay(profile: "external-4k")) }
        #expect(throws: ModelError.invalidArgument("no display 'external-2' is connected; displays: device, external-1")) {
            _ = try sim.step(.moveToDisplay(app: "mail", display: "external-2"))
        }
        // To a 1x monitor: the same size, a new scale (a trait change) and no safe area.
        let move = try sim.step(.moveToDisplay(app: "mail", display: "external-1"))
        let change = try #require(move.transitions.first { $0.app == "mail" })
        #expect(change.steps.all.first == .willTransitionToTraits(sim.windows["mail"]!.traits) && change.context.reason == .display)
        #expect(sim.windows["mail"]?.traits.displayScale == 1 && sim.windows["mail"]?.display == "external-1")
        #expect(sim.windows["mail"]?.safeArea == .zero && sim.windows["mail"]?.frame == Rect(x: 0, y: 0, width: 694, height: 768))
        // Frames on it are checked against its screen.
        _ = try sim.step(.setFrame(app: "mail", Rect(x: 1000, y: 100, width: 900, height: 900)))
        #expect(throws: ModelError.self) { _ = try sim.step(.setFrame(app: "mail", Rect(x: 1100, y: 0, width: 900, height: 900))) }
        // Each screen is a stage of four.
        for app in ["a", "b", "c", "d"] { _ = try sim.step(.openApp(app, .window)) }
        #expect(sim.backgroundApps == ["notes"] && sim.state.placement == ["mail": "external-1"])
        // Unplugged: mail comes back behind the device's windows, fitted, and the one at the back goes.
        let back = try sim.step(.disconnectDisplay(id: "external-1"))
        #expect(sim.state.displays.isEmpty && sim.state.placement.isEmpty && back.displayChanges.contains(.displays))
        #expect(sim.windows["mail"] == nil && sim.backgroundApps == ["notes", "mail"], "mail, at the back, went")
        #expect(sim.state.frames["mail"] == Rect(x: 124, y: 0, width: 900, height: 768), "fitted to the device's screen")
    }

    @Test func inSplitViewAnExternalDisplayMirrors() throws {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .splitTwoThirds,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
        _ = try sim.step(.connectDisplay(profile: "external-4k"))
        #expect(throws: ModelError.self) { _ = try sim.step(.moveToDisplay(app: "mail", display: "external-1")) }
        _ = try sim.step(.setWindowing(.stageManager))
        _ = try sim.step(.moveToDisplay(app: "notes", display: "external-1"))
        #expect(sim.windows["notes"]?.frame == Rect(x: 704, y: 0, width: 320, height: 768) && sim.windows["notes"]?.traits.displayScale == 2)
        // Back to Split View: every window on the device's screen again; the monitor mirrors it.
        _ = try sim.step(.setWindowing(.splitView))
        #expect(sim.state.placement.isEmpty && sim.windows.values.allSatisfy { $0.display == "device" })
        let data = try JSONEncoder().encode(sim.state)
        #expect(try JSONDecoder().decode(DisplayState.self, from: data).displays == [ConnectedDisplay(id: "external-1", profile: "external-4k")])
    }
}
