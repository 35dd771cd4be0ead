import FoundationEssentials
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// The display-wide settings in the model: what a change announces, what it refuses, and what it keeps.
@Suite struct DisplayTraitTests {
    let catalog = try! ProfileLoader.catalog()

    /// mail beside notes on the 9.7-inch iPad, and a video in Picture in Picture.
    func make(_ arrangement: Arrangement = .splitTwoThirds) throws -> Simulation {
        try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: arrangement,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary), .init(name: "video", role: .pip)]))
    }

    @Test func aSettingsChangeIsOneTraitTransitionPerWindowOnScreen() throws {
        var sim = try make()
        let before = sim.windows
        let plan = try sim.step(.setTraits([.appearance: "dark", .contentSize: "accessibility-large"]))
        #expect(plan.displayChanges == [.trait(.appearance), .trait(.contentSize)])
        #expect(plan.transitions.map(\.app) == ["mail", "notes", "video"])
        for change in plan.transitions {
            #expect(change.context.reason == .traits)
            #expect(change.onlySettingsChanged)
            // No size step: the size did not change. WillTransitionToTraitCollection comes first (the switch).
            #expect(change.steps.names == [
                "willTransitionToTraits", "updateProperties", "traitCollectionDidChange", "traitsDidChange",
                "contentSizeCategoryDidChange", "viewWillLayoutSubviews", "complete",
            ])
            #expect(change.after?.traits.display.isDark == true)
            #expect(change.after?.traits.display.contentSize == .accessibilityLarge)
            #expect(change.after?.frame == before[change.app]?.frame, "frames stay")
        }
        #expect(sim.state.traits[.appearance] == "dark" && sim.serial == 2)
    }

    @Test func aCallThatChangesNothingStartsNothing() throws {
        var sim = try make()
        #expect(try sim.apply(.setTraits([.appearance: "light"])).isEmpty)
        #expect(try sim.apply(.setTraits([:])).isEmpty)
        #expect(sim.serial == 1)
    }

    @Test func anUnknownValueRefusesTheWholeCall() throws {
        var sim = try make()
        #expect(throws: ModelError.self) { try sim.apply(.setTraits([.appearance: "dark", .contrast: "extreme"])) }
        #expect(sim.state.traits == DisplayTraits() && sim.serial == 1, "nothing changed, not even the valid half")
    }

    /// Reduce Motion is not a window trait: alone it changes a display property and starts no transition; on,
    /// every later transition lasts 0 s.
    @Test func reduceMotionChangesNoTraitsAndStopsAnimation() throws {
        var sim = try make()
        let plan = try sim.step(.setTraits([.reduceMotion: "on"]))
        #expect(plan.displayChanges == [.trait(.reduceMotion)] && plan.transitions.isEmpty)
        let rotation = try sim.step(.rotate(.portrait))
        #expect(!rotation.transitions.isEmpty && rotation.transitions.allSatisfy { $0.context.duration == 0 })
        #expect(rotation.transitions.allSatisfy { $0.context.traits.reducesMotion })
        _ = try sim.step(.setTraits([.reduceMotion: "off"]))
        #expect(try sim.step(.rotate(.landscapeLeft)).transitions.allSatisfy { $0.context.duration == 0.3 })
    }

    /// Slide Over and Picture in Picture float above another app: `elevated`; the rest `base`. The gamut is the
    /// profile's.
    @Test func levelFollowsTheRoleAndGamutTheDevice() throws {
        var sim = try make(.slideOver)
        #expect(sim.windows["mail"]?.traits.userInterfaceLevel == .base)
        #expect(sim.windows["notes"]?.traits.userInterfaceLevel == .elevated)
        #expect(sim.windows["video"]?.traits.userInterfaceLevel == .elevated)
        _ = try sim.step(.setArrangement(.splitHalf))
        #expect(sim.windows["notes"]?.traits.userInterfaceLevel == .base)
        let gamuts = Set(sim.windows.values.map(\.traits.displayGamut))
        #expect(gamuts == [catalog.profiles["ipad-9.7"]!.gamut])
        _ = try sim.step(.setDevice("ipad-pro-11"))
        #expect(Set(sim.windows.values.map(\.traits.displayGamut)) == [.p3], "the 11-inch iPad Pro has a P3 screen")
    }

    /// A window off screen gets no transition, but never keeps a setting the display no longer has.
    @Test func aSuspendedWindowFollowsTheSettingsWithoutATransition() throws {
        var sim = try make(.full)
        #expect(sim.windows["notes"]?.state == .background)
        let plan = try sim.step(.setTraits([.direction: "right-to-left"]))
        #expect(!plan.transitions.map(\.app).contains("notes"))
        #expect(sim.windows["notes"]?.traits.display.isRightToLeft == true)
    }

    /// A settings change during a divider drag is allowed, and the drag goes on.
    @Test func settingsChangeDuringADrag() throws {
        var sim = try make()
        _ = try sim.step(.beginDividerDrag)
        _ = try sim.step(.setTraits([.legibility: "bold"]))
        #expect(sim.drag != nil && sim.windows["mail"]?.state == .inactive)
        #expect(sim.windows["mail"]?.traits.display.isBold == true)
    }

    /// The state file keeps the settings by word, only those not at their default, and a state saved before the
    /// settings existed loads with every one at its default.
    @Test func theSavedStateKeepsTheSettingsAndOldStatesLoad() throws {
        var state = DisplayState(device: "ipad-9.7", orientation: .portrait, arrangement: .full, apps: [])
        state.traits[.appearance] = "dark"
        state.traits[.reduceMotion] = "on"
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        #expect(json.contains(#""traits":{"#) && json.contains(#""appearance":"dark""#) && !json.contains("content-size"))
        #expect(try JSONDecoder().decode(DisplayState.self, from: Data(json.utf8)) == state)
        let old = #"{"device":"ipad-9.7","orientation":"portrait","arrangement":"full","apps":[],"background":[]}"#
        let loaded = try JSONDecoder().decode(DisplayState.self, from: Data(old.utf8))
        #expect(loaded.traits == DisplayTraits() && loaded.device == "ipad-9.7")
        // A setting or value from a later version is dropped, not a reason to refuse the file.
        let later = #"{"device":"ipad-9.7","orientation":"portrait","arrangement":"full","apps":[],"background":[],"traits":{"appearance":"sepia","sparkle":"on","contrast":"high"}}"#
        let kept = try JSONDecoder().decode(DisplayState.self, from: Data(later.utf8)).traits
        #expect(kept[.appearance] == "light" && kept[.contrast] == "high")
    }

    /// The table is whole: every trait has a distinct word, property and key, its default among its values, and
    /// every condition word names one of its values.
    @Test func theTableIsConsistent() {
        let all = DisplayTrait.all
        for names in [all.map(\.word), all.map(\.property), all.map(\.key)] { #expect(Set(names).count == all.count) }
        for trait in all {
            #expect(trait.accepts(trait.defaultValue), "\(trait)")
            #expect(trait.conditions.values.allSatisfy(trait.accepts), "\(trait)")
            #expect(!trait.isFlag || trait.values == ["off", "on"], "\(trait)")
        }
        #expect(DisplayTrait.contentSize.values.count == 12)
        #expect(ContentSizeCategory.allCases.map(\.bodySize) == [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53])
        #expect(ContentSizeCategory.large.larger == .extraLarge && ContentSizeCategory.extraSmall.smaller == .extraSmall)
    }
}
