import Foundation
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// The software keyboard in the model: heights from the reference in every profile, the frames each mode puts
/// it at, what each device offers, the notices each window gets and in which order, the key window.
@Suite struct KeyboardModelTests {
    let catalog = try! ProfileLoader.catalog()

    func make(_ device: String = "ipad-9.7", _ orientation: Orientation = .landscapeLeft, apps: [DisplayState.App]? = nil,
              windowing: Windowing = .splitView) throws -> Simulation {
        var state = DisplayState(device: device, orientation: orientation, arrangement: .splitTwoThirds,
                                 apps: apps ?? [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)])
        state.windowing = windowing
        return try Simulation(catalog: catalog, state: state)
    }

    /// Every built-in profile states its keyboard, and its docked heights with the bar are the reference's
    /// "with bar" values (Tests/TraitModelTests/Fixtures/system-chrome.md, section 1).
    @Test func everyProfileHasTheReferencesHeights() throws {
        let reference = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/system-chrome.md"), encoding: .utf8)
        // "| 216 / 253 | 162 / 199 |": each row's keys / with bar.
        let pairs = Set(reference.matches(of: /(\d{3}) \/ (\d{3})/).map { "\($0.1)/\($0.2)" })
        for profile in catalog.profiles.values {
            #expect(!profile.keyboard.confidence.hasPrefix("derived: the reference's row for a screen"), "\(profile.id) names no keyboard")
            for height in [profile.keyboard.portrait, profile.keyboard.landscape] {
                #expect(pairs.contains("\(Int(height.keys))/\(Int(height.docked))"), "\(profile.id): \(height)")
            }
        }
        #expect(catalog.profiles["ipad-pro-11"]!.offeredKeyboards == [.hidden, .docked, .undocked, .floating, .hardware])
        #expect(catalog.profiles["iphone-x"]!.offeredKeyboards == [.hidden, .docked, .hardware])
        #expect(catalog.profiles["ipad-mini-6"]!.offeredKeyboards == KeyboardMode.allCases)
    }

    @Test func eachModePutsTheKeyboardWhereTheRulesSay() throws {
        let pad = catalog.profiles["ipad-9.7"]!, phone = catalog.profiles["iphone-15"]!
        #expect(pad.keyboardFrame(.docked, .portrait) == Rect(x: 0, y: 711, width: 768, height: 313))
        #expect(pad.keyboardFrame(.docked, .landscapeLeft) == Rect(x: 0, y: 370, width: 1024, height: 398))
        #expect(pad.keyboardFrame(.undocked, .landscapeLeft) == Rect(x: 0, y: 250, width: 1024, height: 398))
        #expect(pad.keyboardFrame(.split, .landscapeLeft) == Rect(x: 0, y: 300, width: 1024, height: 348))
        #expect(pad.keyboardFrame(.floating, .landscapeLeft) == Rect(x: 352, y: 488, width: 320, height: 260))
        #expect(pad.keyboardFrame(.hardware, .landscapeLeft) == Rect(x: 0, y: 713, width: 1024, height: 55))
        #expect(pad.keyboardFrame(.hidden, .landscapeLeft) == nil)
        // A Face ID phone: 336 in portrait (292 + 44), the shortcut bar above the 34-pt home indicator.
        #expect(phone.keyboardFrame(.docked, .portrait) == Rect(x: 0, y: 516, width: 393, height: 336))
        #expect(phone.keyboardFrame(.hardware, .portrait) == Rect(x: 0, y: 763, width: 393, height: 89))
        // A profile without a keyboard section gets its class's row.
        #expect(KeyboardTable.derived(idiom: .pad, landscapeScreen: Size(width: 1194, height: 834)).portrait.docked == 333)
    }

    /// A show: every visible window gets the Will notices before its properties change and the Did ones after
    /// it lays out; `local` only in the key window (the primary in Split View, Slide Over when shown, the front
    /// window in Stage Manager).
    @Test func aShowIsAnnouncedInOrderLocalOnlyInTheKeyWindow() throws {
        var sim = try make()
        let plan = try sim.step(.setKeyboard(.docked))
        #expect(plan.reason == .keyboard && plan.displayChanges.isSuperset(of: [.keyboard, .keyboardFrame]))
        let mail = try #require(plan.windows.first { $0.app == "mail" })
        #expect(mail.steps.names == ["KeyboardWillChangeFrame", "KeyboardWillShow", "updateProperties", "viewWillLayoutSubviews",
                                           "KeyboardDidChangeFrame", "KeyboardDidShow", "complete"])
        #expect(sim.windows["mail"]?.keyboard?.local == true && sim.windows["notes"]?.keyboard?.local == false)
        var over = try make()
        _ = try over.step(.setArrangement(.slideOver))
        _ = try over.step(.setKeyboard(.docked))
        #expect(over.windows["notes"]?.keyboard?.local == true && over.windows["mail"]?.keyboard?.local == false)
        var stage = try make(apps: [.init(name: "mail", role: .window), .init(name: "notes", role: .window)], windowing: .stageManager)
        _ = try stage.step(.setKeyboard(.docked))
        let front = try #require(stage.state.stacking.first)
        #expect(stage.windows[front]?.keyboard?.local == true)
        _ = try stage.step(.raise(app: front == "mail" ? "notes" : "mail"))
        #expect(stage.windows[front]?.keyboard?.local == false)
    }

    /// While the keyboard is up, another transition re-announces it with the frame it has then (a rotation:
    /// WillShow with the portrait frame); a device that lacks the mode takes the nearest (split -> undocked on an
    /// 11" Pro, undocked -> docked on a phone); a refused mode changes nothing.
    @Test func otherTransitionsReannounceItAndDevicesTakeTheNearestMode() throws {
        var sim = try make()
        _ = try sim.step(.setKeyboard(.docked))
        let rotation = try sim.step(.rotate(.portrait))
        let mail = try #require(rotation.windows.first { $0.app == "mail" })
        #expect(mail.steps.names.contains("KeyboardWillShow"))
        guard case .keyboard(let notice)? = mail.steps.all.first(where: { if case .keyboard = $0 { true } else { false } }) else {
            Issue.record("no keyboard notice in \(mail.steps.names)")
            return
        }
        #expect(notice.begin == Rect(x: 0, y: 370, width: 1024, height: 398) && notice.end == Rect(x: 0, y: 711, width: 768, height: 313))
        _ = try sim.step(.setKeyboard(.split))
        _ = try sim.step(.setDevice("ipad-pro-11"))
        #expect(sim.state.keyboard == .undocked)
        let serial = sim.serial
        #expect(throws: ModelError.self) { try sim.step(.setKeyboard(.split)) }
        #expect(sim.serial == serial && sim.state.keyboard == .undocked)
        _ = try sim.step(.setDevice("iphone-15"))
        #expect(sim.state.keyboard == .docked)
        // A window on a monitor has no keyboard; a hidden keyboard, none anywhere.
        _ = try sim.step(.setKeyboard(.hidden))
        #expect(sim.windows.values.allSatisfy { $0.keyboard == nil })
    }

    /// The state file keeps the keyboard only when it shows, so a file written with it hidden reads as before;
    /// one from before the keyboard loads hidden.
    @Test func theKeyboardIsSavedOnlyWhenItShows() throws {
        var state = DisplayState(device: "ipad-9.7", orientation: .portrait, arrangement: .full, apps: [.init(name: "mail", role: .primary)])
        let hidden = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        #expect(!hidden.contains("keyboard"))
        state.keyboard = .floating
        let shown = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(DisplayState.self, from: shown).keyboard == .floating)
        #expect(try JSONDecoder().decode(DisplayState.self, from: Data(hidden.utf8)).keyboard == .hidden)
    }
}
