import TraitConfig
import TraitModel
import Vocabulary
import Testing

@Suite struct SimulationTests {
    let catalog = try! ProfileLoader.catalog()

    func make(_ device: String = "ipad-9.7", _ orientation: Orientation = .landscapeLeft,
              _ arrangement: Arrangement = .splitTwoThirds) throws -> Simulation {
        try Simulation(catalog: catalog, state: DisplayState(
            device: device, orientation: orientation, arrangement: arrangement,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
    }

    @Test func rotationMovesAnImpossibleArrangementToTheNearestOffered() throws {
        var sim = try make("ipad-9.7", .landscapeLeft, .splitHalf)
        let plan = try sim.step(.rotate(.portrait))
        #expect(sim.state.arrangement == .splitTwoThirds)
        #expect(plan.displayChanges.isSuperset(of: [.orientation, .arrangement, .screenSize]))
        #expect(sim.windows["mail"]?.frame.width == 438 && sim.windows["notes"]?.frame.width == 320)
        #expect(Arrangement.splitHalf.nearest(in: [.full, .splitOneThird, .slideOver]) == .splitOneThird)
        #expect(Arrangement.splitTwoThirds.nearest(in: [.full, .splitOneThird]) == .splitOneThird)
    }

    @Test func sizeOnlyChangeHasNoTraitSteps() throws {
        // A 12.9-inch Stage Manager window widened from 700 to 760 pt: the size changes; UIKit's size class
        // (regular) and Android's (medium, 600 to 840 dp) stay.
        var sim = try make("ipad-pro-12.9", .landscapeLeft, .full)
        _ = try sim.step(.setWindowing(.stageManager))
        _ = try sim.step(.setFrame(app: "mail", Rect(x: 100, y: 100, width: 700, height: 600)))
        let plan = try sim.step(.setFrame(app: "mail", Rect(x: 100, y: 100, width: 760, height: 600)))
        let mail = try #require(plan.windows.first { $0.app == "mail" })
        #expect(mail.steps.names == ["viewWillTransitionToSize", "updateProperties", "viewWillLayoutSubviews", "complete"])
        #expect(mail.steps.size == Size(width: 760, height: 600))
        #expect(mail.after?.traits.windowWidthSizeClass == .medium)
    }

    @Test func sizeAndTraitChangeFollowsUIKitOrder() throws {
        // 9.7-inch: 2/3 (694 R) -> 1/2 (507 C).
        var sim = try make()
        let before = try #require(sim.windows["mail"]).traits
        let plan = try sim.step(.setArrangement(.splitHalf))
        let mail = try #require(plan.windows.first { $0.app == "mail" })
        var after = before
        after.horizontalSizeClass = .compact
        after.windowWidthSizeClass = .compact  // and Android's: 694 dp is medium, 507 compact
        #expect(mail.steps.names == [
            "willTransitionToTraits", "viewWillTransitionToSize", "updateProperties", "traitCollectionDidChange", "traitsDidChange",
            "viewWillLayoutSubviews", "complete",
        ])
        let window = try #require(mail.after)
        #expect(mail.steps.beforeProperties == [
            .willTransitionToTraits(after),
            .viewWillTransitionToSize(Size(width: 507, height: 768), context: mail.context, window: window, screen: Size(width: 1024, height: 768)),
        ])
        #expect(mail.steps.afterProperties == [
            .traitCollectionDidChange(previous: before), .traitDidChange(.horizontalSizeClass, traits: after, previous: before),
            .traitDidChange(.windowWidthSizeClass, traits: after, previous: before), .viewWillLayoutSubviews,
        ])
        // The secondary goes 320 C -> 507 C: size only.
        let notes = try #require(plan.windows.first { $0.app == "notes" })
        #expect(notes.steps.names.count == 4 && notes.sizeChanged && !notes.traitsChanged)
        #expect(plan.serial == 2 && sim.serial == 2)
    }

    @Test func traitOnlyChangeHasNoSizeStep() throws {
        // A profile with the 9.7-inch sizes but a compact vertical class in landscape (as a phone has).
        let ipad = try catalog.profile("ipad-9.7")
        var squat = ipad
        squat.id = "squat"
        squat.landscape.vertical = .compact
        var custom = catalog
        custom.add(squat)
        var sim = try Simulation(catalog: custom, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .full,
            apps: [.init(name: "mail", role: .primary)]))
        let plan = try sim.step(.setDevice("squat"))
        let mail = try #require(plan.windows.first)
        #expect(!mail.sizeChanged && mail.traitsChanged)
        #expect(mail.steps.names == ["willTransitionToTraits", "updateProperties", "traitCollectionDidChange", "traitsDidChange", "viewWillLayoutSubviews", "complete"])
        #expect(mail.context.reason == .device)
    }

    @Test func unchangedGeometryGetsNothing() throws {
        var sim = try make()
        // The same command again changes nothing at all, and the serial stays.
        let same = try sim.step(.setArrangement(.splitTwoThirds))
        #expect(same.isEmpty && sim.serial == 1)
        _ = try sim.step(.rotate(.landscapeRight))
        let again = try sim.step(.rotate(.landscapeRight))
        #expect(again.isEmpty && sim.serial == 2)
    }

    @Test func aHalfTurnTellsEveryWindowOnScreenItsUnchangedSize() throws {
        var sim = try make()
        _ = try sim.step(.openApp("video", .pip))
        _ = try sim.step(.setArrangement(.full))  // notes waits in the background
        let plan = try sim.step(.rotate(.landscapeRight))
        #expect(plan.displayChanges == [.orientation] && sim.serial == 4)
        // mail and the pip window are on screen; notes, in the background, hears nothing.
        #expect(plan.transitions.map(\.app) == ["mail", "video"])
        for change in plan.transitions {
            let size = try #require(change.before?.frame.size)
            #expect(change.rotated && !change.sizeChanged && !change.traitsChanged && !change.safeAreaChanged)
            #expect(change.steps.names == ["viewWillTransitionToSize", "updateProperties", "viewWillLayoutSubviews", "complete"] && change.steps.size == size)
            #expect(change.context.reason == .rotation && change.context.orientation == .landscapeRight)
            #expect(change.context.duration == 2 * sim.settings.duration, "a half turn animates twice as long")
        }
        // Portrait to upside-down on an iPad, which offers it: the same.
        _ = try sim.step(.rotate(.portrait))
        let flip = try sim.step(.rotate(.portraitUpsideDown))
        #expect(flip.transitions.map(\.app) == ["mail", "video"] && flip.transitions.allSatisfy { $0.rotated })
    }

    @Test func fullScreenSendsTheSecondaryToTheBackgroundAndBack() throws {
        var sim = try make()
        let toFull = try sim.step(.setArrangement(.full))
        let notes = try #require(toFull.windows.first { $0.app == "notes" })
        #expect(notes.lifecycle == [.willResignActive, .didEnterBackground] && !notes.needsTransition)
        let back = try sim.step(.setArrangement(.splitOneThird))
        let returning = try #require(back.windows.first { $0.app == "notes" })
        #expect(returning.lifecycle == [.willEnterForeground, .didBecomeActive])
        #expect(returning.after?.frame.width == 694 && returning.needsTransition)
    }

    /// One meaning of background: a window off screen is listed in `backgroundApps` beside the dismissed apps,
    /// keeps its last size on its own device, and after a device change takes the same split's side on the new
    /// one (never the old device's frame or safe area), with no transition while it is off screen.
    @Test func aWindowInTheBackgroundFollowsADeviceChangeWithoutATransition() throws {
        var sim = try make()
        _ = try sim.step(.setArrangement(.full))
        let kept = try #require(sim.windows["notes"])
        #expect(kept.state == .background && kept.frame == Rect(x: 704, y: 0, width: 320, height: 768))
        #expect(sim.backgroundApps == ["notes"] && sim.display.backgroundApps == ["notes"])
        let change = try sim.step(.setDevice("ipad-pro-11"))
        #expect(change.displayChanges.isSuperset(of: [.device]) && !change.displayChanges.contains(.background))
        let profile = try sim.catalog.profile("ipad-pro-11")
        let split = DisplayGeometry(profile: profile, orientation: .landscapeLeft, arrangement: .splitTwoThirds)
        let expected = try #require(split.secondary?.frame)
        let notes = try #require(sim.windows["notes"])
        #expect(notes.state == .background && notes.frame == expected, "\(notes.frame)")
        #expect(notes.safeArea == split.safeArea(of: expected, role: .secondary), "\(notes.safeArea)")
        #expect(notes.safeArea.top != 20, "no Face ID iPad has the 20 pt status bar")
        let notesChange = try #require(change.windows.first { $0.app == "notes" })
        #expect(!notesChange.needsTransition && notesChange.steps.isEmpty, "a suspended app gets no callbacks")
        #expect(sim.backgroundApps == ["notes"])
        // Coming back in another split: a transition from the geometry it had off screen, on this device.
        let back = try sim.step(.setArrangement(.splitHalf))
        let returning = try #require(back.windows.first { $0.app == "notes" })
        #expect(returning.before?.frame == expected && returning.needsTransition)
        #expect(returning.lifecycle == [.willEnterForeground, .didBecomeActive])
        #expect(sim.backgroundApps.isEmpty && back.displayChanges.contains(.background))
    }

    @Test func openAndCloseApps() throws {
        var sim = try make("ipad-9.7", .landscapeLeft, .full)
        #expect(throws: ModelError.roleTaken("app 'notes' holds the secondary role; close it first")) {
            _ = try sim.step(.openApp("other", .secondary))
        }
        #expect(throws: ModelError.roleTaken("app 'notes' holds the secondary role (Slide Over is the secondary slot: one app "
                                             + "holds it, beside or over the primary); close it first")) {
            _ = try sim.step(.openApp("maps", .slideOver))
        }
        let pip = try sim.step(.openApp("video", .pip))
        #expect(pip.opened == ["video"] && pip.displayChanges == [.windows, .stacking], "PiP floats in front of everything")
        // The new window's first layout is a transition of its own: nothing before its layout pass.
        #expect(pip.transitions.map(\.app) == ["video"] && pip.transitions.first?.steps == TransitionSteps(afterProperties: [.viewWillLayoutSubviews]))
        #expect(sim.windows["video"]?.frame == Rect(x: 684, y: 568, width: 320, height: 180))
        #expect(throws: ModelError.appExists("app 'video' is already open")) { _ = try sim.step(.openApp("video", .pip)) }
        // Closing the primary gives the secondary the whole screen.
        let close = try sim.step(.closeApp("mail"))
        #expect(close.closed == ["mail"])
        #expect(sim.state.app(named: "notes")?.role == .primary && sim.state.arrangement == .full)
        #expect(sim.windows["notes"]?.frame.width == 1024 && sim.windows["notes"]?.state == .active)
        // Slide Over: the primary keeps its size and gets no transition; the new window gets its first layout.
        let over = try sim.step(.openApp("chat", .slideOver))
        #expect(sim.state.arrangement == .slideOver && sim.windows["chat"]?.role == .slideOver)
        #expect(over.transitions.map(\.app) == ["chat"] && over.opened == ["chat"])
        #expect(throws: ModelError.noSuchApp("no app 'nobody' is open; open apps: notes, chat, video")) {
            _ = try sim.step(.closeApp("nobody"))
        }
    }

    @Test(arguments: ["", "has space", "dot.ted", String(repeating: "a", count: 65), "ünïcode", "a/b"])
    func invalidAppNamesAreRefused(name: String) throws {
        var sim = try make("ipad-9.7", .landscapeLeft, .full)
        let before = sim.state
        #expect(throws: ModelError.self) { _ = try sim.step(.openApp(name, .pip)) }
        #expect(sim.state == before && sim.serial == 1)
    }

    /// Kept out of the parameterized test above: Swift Testing would print the NUL byte into the log.
    @Test func aNameWithANulByteIsRefused() throws {
        var sim = try make("ipad-9.7", .landscapeLeft, .full)
        #expect(throws: ModelError.self) { _ = try sim.step(.openApp("nul\u{0}", .pip)) }
        #expect(sim.serial == 1)
    }

    @Test func unknownDeviceIsRefusedWithTheKnownOnes() throws {
        var sim = try make()
        #expect(throws: ModelError.invalidArgument(
            "unknown device 'ipad-99'; known devices: ipad-10.2, ipad-11, ipad-9.7, ipad-air-10.9, ipad-air-13, ipad-mini-6, "
                + "ipad-mini-7, ipad-pro-10.5, ipad-pro-11, ipad-pro-11-m4, ipad-pro-12.9, ipad-pro-13-m4, iphone-12, "
                + "iphone-12-pro-max, iphone-13-mini, iphone-14, iphone-14-plus, iphone-15, iphone-15-pro-max, iphone-16-pro, "
                + "iphone-16-pro-max, iphone-17-pro, iphone-17-pro-max, iphone-8, iphone-8-plus, iphone-air, iphone-se-1, "
                + "iphone-x, iphone-xr, iphone-xs-max"
        )) { _ = try sim.step(.setDevice("ipad-99")) }
        #expect(sim.serial == 1)
    }

    @Test func splitNeedsASecondApp() throws {
        var sim = try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .full, apps: [.init(name: "mail", role: .primary)]))
        #expect(throws: ModelError.missingApp("split-half needs a second app; open one with OpenApp(name, 'secondary')")) {
            _ = try sim.step(.setArrangement(.splitHalf))
        }
        _ = try sim.step(.openApp("notes", .secondary))
        #expect(sim.state.arrangement == .splitTwoThirds)
    }

    @Test func deviceChangeKeepsAnOfferedArrangement() throws {
        var sim = try make("ipad-pro-12.9", .landscapeLeft, .splitHalf)
        let plan = try sim.step(.setDevice("ipad-9.7"))
        #expect(sim.state.arrangement == .splitHalf)
        #expect(plan.displayChanges.isSuperset(of: [.device, .screenSize]))
        // 678 R -> 507 C on both sides.
        #expect(plan.transitions.count == 2 && plan.transitions.allSatisfy { $0.traitsChanged && $0.sizeChanged })
    }
}

extension TransitionSteps {
    /// The steps by name in order, with the two points the transition turns on: where the window's properties
    /// change (`updateProperties`) and where it waits for its adapters (`complete`); a trait's `TraitDidChange`
    /// steps, one per trait, named once (`traitsDidChange`).
    var names: [String] {
        var names: [String] = []
        for step in beforeProperties { names.append(step.description) }
        names.append("updateProperties")
        for step in afterProperties {
            if case .traitDidChange = step {
                if names.last != "traitsDidChange" { names.append("traitsDidChange") }
            } else {
                names.append(step.description)
            }
        }
        return names + ["complete"]
    }

    /// The size `ViewWillTransitionToSize` carries, if the transition has one.
    var size: Size? {
        for case .viewWillTransitionToSize(let size, _, _, _) in all { return size }
        return nil
    }
}
