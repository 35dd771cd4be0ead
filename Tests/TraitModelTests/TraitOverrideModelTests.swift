import FoundationEssentials
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// Trait overrides in the model (`SetTraitOverrides`): what a suspended window keeps, which text-size signal an
/// override sends, and what a `Reset` does to custom traits.
@Suite struct TraitOverrideModelTests {
    let catalog = try! ProfileLoader.catalog()

    /// mail beside notes on the 9.7-inch iPad (half and half: both compact).
    func make() throws -> Simulation {
        try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: .landscapeLeft, arrangement: .splitHalf,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
    }

    /// A window in the background keeps the geometry it had, but its traits are the system's with the
    /// overrides the app has now: dropping one while suspended drops it.
    @Test func aSuspendedWindowLosesTheOverridesItsAppDrops() throws {
        var sim = try make()
        _ = try sim.step(.setTraitOverrides(app: "notes", TraitOverrideRequest(
            system: [.horizontalSizeClass: "regular"], custom: ["com.example.badges": .init(override: .bool(true))])))
        #expect(sim.windows["notes"]?.traits.horizontalSizeClass == .regular)
        _ = try sim.step(.setArrangement(.full))
        #expect(sim.windows["notes"]?.state == .background && sim.windows["notes"]?.traits.horizontalSizeClass == .regular)
        _ = try sim.step(.setTraitOverrides(app: "notes", TraitOverrideRequest()))
        let notes = try #require(sim.windows["notes"])
        #expect(notes.traits.horizontalSizeClass == .compact, "the system's class of its half, not the dropped override")
        #expect(notes.traits.custom == ["com.example.badges": .bool(false)], "named, at its default")
        #expect(sim.explain("notes")?.first { $0.topic == "traitOverrides" }?.text.contains("at its default: not overridden") == true)
    }

    /// UIKit posts the text size's notification when the setting changes, not when a window's override of it
    /// does. A window whose text is overridden keeps its traits when the setting changes: no transition, so no
    /// notification either (traitd sends it in a window's transition); the others hear it.
    @Test func theTextSizeNotificationFollowsTheSettingNotAnOverride() throws {
        var sim = try make()
        let forced = try sim.step(.setTraitOverrides(app: "mail", TraitOverrideRequest(system: [.display(.contentSize): "extra-large"])))
        let mail = try #require(forced.transitions.first { $0.app == "mail" })
        #expect(mail.steps.names.contains("traitsDidChange") && !mail.steps.names.contains("contentSizeCategoryDidChange"), "\(mail.steps.names)")
        let setting = try sim.step(.setTraits([.contentSize: "accessibility-large"]))
        #expect(setting.transitions.first { $0.app == "mail" } == nil, "mail's traits stay: no transition")
        #expect(sim.windows["mail"]?.traits.display.contentSize == .extraLarge, "the override holds")
        #expect(setting.transitions.first { $0.app == "notes" }?.steps.names.contains("contentSizeCategoryDidChange") == true)
    }

    /// A restore to a state without the app's declarations (a `Reset`) forgets its custom traits: no
    /// `TraitDidChange` for a trait that is gone (it would have no value of its type to change to).
    @Test func aResetForgetsCustomTraitsWithoutATraitChangeForThem() throws {
        var sim = try make()
        let start = sim.state
        _ = try sim.step(.setTraitOverrides(app: "mail", TraitOverrideRequest(custom: ["com.example.badges": .init(override: .bool(true))])))
        let reset = try sim.step(.restore(start))
        let mail = try #require(reset.transitions.first { $0.app == "mail" })
        #expect(sim.windows["mail"]?.traits.custom.isEmpty == true)
        #expect(!mail.steps.all.contains { if case .traitDidChange(.custom, _, _) = $0 { return true } else { return false } }, "\(mail.steps.names)")
    }
}
