import Logging
import TestSupport
import TraitConfig
import TraitModel
import TransitionEngine
import Vocabulary
import Testing

/// The engine without a bus: what it announces, in order, as the values it returns; deadlines as events from a
/// test clock that the test moves by hand; live-resize steps that wait, coalesce and are named to their callers.
@Suite struct TransitionEngineTests {
    /// The engine, the adapters registered per app, a clock, and everything announced so far.
    struct Setup {
        var engine: TransitionEngine
        var adapters: [String: [String]]
        /// Everything announced so far, in order.
        var events: [EngineEvent] = []
        /// The test clock: seconds since the start, and the deadlines it holds (app, id, when).
        var now = 0.0
        var deadlines: [(app: String, id: UInt64, at: Double)] = []

        /// The embedded default (iPad 9.7, landscape, mail two thirds beside notes); `adapters` per app.
        init(adapters: [String: [String]] = [:], windowing: Windowing? = nil) throws {
            var simulation = try DaemonConfig.embedded().makeSimulation(catalog: try ProfileLoader.catalog())
            if let windowing { _ = try simulation.apply(.setWindowing(windowing)) }
            engine = TransitionEngine(simulation: simulation, deadline: 0.5,
                                      logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            self.adapters = adapters
        }

        private mutating func take(_ event: EngineEvent) {
            events.append(event)
            switch event {
            case .deadlineStarted(let app, let id, let seconds): deadlines.append((app, id, now + seconds))
            case .completed(_, let outcome): deadlines.removeAll { $0.id == outcome.id }
            default: break
            }
        }

        @discardableResult
        mutating func apply(_ command: Command) throws -> [UInt64] {
            var out: [EngineEvent] = []
            let began = try engine.run(command, adapters: adapters) { out.append($0) }
            out.forEach { take($0) }
            return began
        }

        mutating func step(_ app: String, _ width: Double, _ height: Double) throws -> [UInt64] {
            var out: [EngineEvent] = []
            let began = try engine.resizeStep(app, to: Size(width: width, height: height), adapters: adapters) { out.append($0) }
            out.forEach { take($0) }
            return began
        }

        mutating func endResize(_ app: String, caller: UInt64) throws -> [UInt64]? {
            var out: [EngineEvent] = []
            let ended = try engine.endResize(app, caller: caller, adapters: adapters) { out.append($0) }
            out.forEach { take($0) }
            return ended
        }

        mutating func report(_ app: String, _ adapter: String, failed: Bool = false) throws {
            let id = try #require(engine.openTransitions[app])
            try engine.checkReport(app: app, id: id, adapter: adapter)
            var out: [EngineEvent] = []
            let adapters = adapters
            engine.reported(app: app, id: id, adapter: adapter, failed: failed, adapters: { adapters }) { out.append($0) }
            out.forEach { take($0) }
        }

        mutating func adapterLeft(_ app: String, _ adapter: String) {
            var out: [EngineEvent] = []
            let adapters = adapters
            engine.adapterLeft(app: app, adapter: adapter, adapters: { adapters }) { out.append($0) }
            out.forEach { take($0) }
        }

        /// Moves the test clock by `seconds`: every deadline due fires, in time order.
        mutating func advance(_ seconds: Double) {
            now += seconds
            while let due = deadlines.filter({ $0.at <= now }).min(by: { $0.at < $1.at }) {
                deadlines.removeAll { $0.id == due.id }
                var out: [EngineEvent] = []
                let adapters = adapters
                engine.deadlinePassed(app: due.app, id: due.id, adapters: { adapters }) { out.append($0) }
                out.forEach { take($0) }
            }
        }

        /// What reaches the bus, in order (the deadlines are the shell's timers, not bus traffic).
        var lines: [String] {
            events.filter { if case .deadlineStarted = $0 { false } else { true } }.map(\.description)
        }

        func completions(of app: String) -> [TransitionCompletion] {
            events.compactMap { if case .completed(app, let outcome) = $0 { outcome } else { nil } }
        }
    }

    @Test func aRotationIsAnnouncedInUIKitsOrder() throws {
        var setup = try Setup()
        try setup.apply(.rotate(.portrait))
        // Both windows change size; mail (694 -> 438 wide) also changes its horizontal size class, and both
        // their Android height class (768 -> 1024 dp tall: medium -> expanded), mail its width class (medium ->
        // compact); the iPad 9.7 has no safe area to change. The "will" half of every transition, then the new
        // values (display first), then the "did" half (a TraitDidChange per trait, by name), then completion.
        #expect(setup.lines == [
            "mail willTransitionToTraits #1", "mail viewWillTransitionToSize #1",
            "notes willTransitionToTraits #2", "notes viewWillTransitionToSize #2",
            "display changed divider orientation screenSize serial",
            "mail changed frame horizontalSizeClass traits", "mail effective geometry #1",
            "notes changed frame traits", "notes effective geometry #2",
            "mail traitCollectionDidChange #1", "mail traitDidChange(horizontalSizeClass) #1",
            "mail traitDidChange(windowHeightSizeClass) #1", "mail traitDidChange(windowWidthSizeClass) #1",
            "mail viewWillLayoutSubviews #1",
            "notes traitCollectionDidChange #2", "notes traitDidChange(windowHeightSizeClass) #2", "notes viewWillLayoutSubviews #2",
            "mail completed #1", "notes completed #2",
        ])
        // With no adapters, each completes at once, nobody missed, and no deadline was started.
        #expect(setup.completions(of: "mail").map(\.missed) == [[]])
        #expect(setup.deadlines.isEmpty)
        guard case .step("mail", 1, .viewWillTransitionToSize(let size, let context, let window, let screen))? = setup.events.dropFirst().first else {
            Issue.record("no viewWillTransitionToSize second: \(setup.lines)")
            return
        }
        #expect(size == Size(width: 438, height: 1024) && context.reason == .rotation && context.orientation == .portrait)
        #expect(window.frame.size == size && screen == Size(width: 768, height: 1024))
    }

    /// What changed is the model's: a dark-mode change names the one trait that changed, once per window, and
    /// the portal's settings once per command; a monitor plugged in and a window moved to it are announced as
    /// the display's own events, in UIKit's order.
    @Test func settingsAndDisplaysAreAnnouncedAsTheModelDecidedThem() throws {
        var setup = try Setup(windowing: .stageManager)
        try setup.apply(.setTraits([.appearance: "dark"]))
        #expect(setup.lines.filter { $0.contains("traitDidChange") } == [
            "mail traitDidChange(display(appearance)) #1", "notes traitDidChange(display(appearance)) #2",
        ])
        #expect(setup.lines.last == "settings changed appearance")
        setup.events = []
        try setup.apply(.connectDisplay(profile: "external-1440p"))
        #expect(setup.lines == ["display changed displays serial", "external-1 connected"])
        setup.events = []
        try setup.apply(.moveToDisplay(app: "notes", display: "external-1"))
        #expect(setup.lines.last == "external-1 windows notes")
        setup.events = []
        try setup.apply(.disconnectDisplay(id: "external-1"))
        #expect(setup.lines.first == "external-1 disconnected", "before the windows it had move: \(setup.lines)")
    }

    /// A window that opens gets its first layout as a transition: it appears, the display's values change, its
    /// one signal (`viewWillLayoutSubviews`) names the transition, which waits for the adapters registered for
    /// it and is the command's answer, so a caller can wait until the new window is laid out.
    @Test func aWindowThatOpensGetsItsFirstLayoutAsATransition() throws {
        var setup = try Setup(adapters: ["video": ["player"]])
        let began = try setup.apply(.openApp("video", .pip))
        #expect(setup.lines == [
            "video opened", "display changed serial stacking windows", "video viewWillLayoutSubviews #1",
        ], "\(setup.lines)")
        #expect(began == [1] && setup.deadlines.map(\.app) == ["video"])
        try setup.report("video", "player")
        #expect(setup.completions(of: "video").map(\.reported) == [["player"]])
    }

    @Test func aNewCommandCompletesTheOpenTransitionFirst() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar"]])
        try setup.apply(.setArrangement(.splitHalf))
        #expect(setup.completions(of: "mail").isEmpty, "mail waits for its adapter")
        #expect(setup.deadlines.map(\.app) == ["mail"] && setup.deadlines[0].at == 0.5)
        let first = setup.deadlines[0].id
        setup.events = []
        try setup.apply(.setArrangement(.splitTwoThirds))
        // Superseded: completed (sidebar missed it) before the next transition's first signal; its deadline goes.
        #expect(setup.lines.first == "mail completed #\(first)")
        #expect(setup.completions(of: "mail").first?.missed == ["sidebar"])
        #expect(setup.deadlines.count == 1 && setup.deadlines[0].id > first, "ids go up, never reused")
    }

    /// On the test clock: the deadline fires at exactly its instant, once; a report after it is stale.
    @Test func theDeadlineCompletesOnceAtItsInstantAndReportsAfterItAreStale() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar", "toolbar"]])
        try setup.apply(.setArrangement(.splitHalf))
        let id = try #require(setup.engine.openTransitions["mail"])
        try setup.report("mail", "sidebar")
        #expect(throws: ReportRefusal.self) { try setup.engine.checkReport(app: "mail", id: id, adapter: "sidebar") }
        setup.advance(0.499)
        #expect(setup.completions(of: "mail").isEmpty, "not before its instant")
        setup.advance(0.001)
        setup.advance(10)
        let completions = setup.completions(of: "mail")
        #expect(completions.count == 1)
        #expect(completions.first?.reported == ["sidebar"] && completions.first?.missed == ["toolbar"])
        #expect(throws: ReportRefusal.stale("transition \(id) is not open for window 'mail'; it has no open transition")) {
            try setup.engine.checkReport(app: "mail", id: id, adapter: "toolbar")
        }
    }

    @Test func theLastReportCompletesAtOnceWithItsLayoutsAndCancelsTheDeadline() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar"], "notes": ["list"]])
        try setup.apply(.setArrangement(.splitHalf))
        setup.events = []
        try setup.report("mail", "sidebar", failed: true)
        #expect(setup.lines == ["mail layouts changed", "mail completed #1"], "the layouts once, just before")
        #expect(setup.completions(of: "mail").first?.failed == ["sidebar"])
        #expect(!setup.deadlines.contains { $0.app == "mail" }, "its deadline goes with it")
        // An adapter that leaves counts as missed, and completes what waited only for it.
        setup.adapterLeft("notes", "list")
        #expect(setup.completions(of: "notes").first?.missed == ["list"])
        #expect(setup.deadlines.isEmpty)
    }

    /// Steps faster than the adapter wait and coalesce, each told the transition that will carry it; an
    /// EndResize while one waits is answered once it is applied, and the adapter is never counted missed.
    @Test func liveResizeStepsCoalesceAndEveryTransitionIsNamedToItsCaller() throws {
        var setup = try Setup(adapters: ["mail": ["slow"]], windowing: .stageManager)
        try setup.apply(.beginResize(app: "mail"))
        let first = try setup.step("mail", 600, 500)
        #expect(first.count == 1 && setup.engine.openTransitions["mail"] == first[0])
        let waiting = try setup.step("mail", 650, 500) + setup.step("mail", 700, 500)
        #expect(waiting.count == 2 && waiting[0] == waiting[1] && waiting[0] > first[0], "\(waiting)")
        #expect(setup.engine.simulation.windows["mail"]?.frame.width == 600)
        #expect(try setup.endResize("mail", caller: 7) == nil, "the end waits for the step")
        #expect(throws: ModelError.self) { _ = try setup.step("mail", 720, 500) }
        setup.advance(0.2)
        try setup.report("mail", "slow")
        #expect(setup.completions(of: "mail").map(\.reported) == [["slow"]], "never cut short by the end")
        #expect(setup.engine.simulation.windows["mail"]?.frame.width == 700 && setup.engine.simulation.resizing == nil)
        #expect(setup.engine.openTransitions["mail"] == waiting[0], "the step applied in the transition its replies named")
        let answers = setup.events.compactMap { if case .answered(7, let result) = $0 { try? result.get() } else { nil } }
        #expect(answers == [[waiting[0]]])
        try setup.report("mail", "slow")
        #expect(setup.completions(of: "mail").map(\.reported) == [["slow"], ["slow"]])
    }

    /// One `EndResize` per resize: a second while a step waits is refused at once, so every call gets one reply
    /// (the second once replaced the first caller, who was never answered).
    @Test func aSecondEndResizeWhileAStepWaitsIsRefusedAndTheFirstIsAnswered() throws {
        var setup = try Setup(adapters: ["mail": ["slow"]], windowing: .stageManager)
        try setup.apply(.beginResize(app: "mail"))
        _ = try setup.step("mail", 600, 500)
        let waiting = try setup.step("mail", 700, 500)
        #expect(try setup.endResize("mail", caller: 7) == nil)
        #expect(throws: ModelError.self) { _ = try setup.endResize("mail", caller: 8) }
        try setup.report("mail", "slow")
        let answered = setup.events.compactMap { if case .answered(let caller, let result) = $0 { (caller, try? result.get()) } else { nil } }
        #expect(answered.map(\.0) == [7] && answered.first?.1 == [waiting[0]], "\(answered)")
    }

    /// A refused command announces nothing and leaves the simulation as it was, however far it got: a
    /// geometry request on an iPhone turns the display, then is refused for its size (the turn stayed once,
    /// unannounced, and the Serial moved).
    @Test func aRefusedCommandAnnouncesNothingAndChangesNothing() throws {
        var setup = try Setup(adapters: ["mail": ["list"]])
        try setup.apply(.setDevice("iphone-15"))
        try setup.report("mail", "list")
        setup.events.removeAll()
        let before = setup.engine.simulation
        let other: Orientation = before.state.orientation == .portrait ? .landscapeLeft : .portrait
        let request = GeometryRequest(orientations: [other], size: Size(width: 500, height: 500))
        #expect(throws: ModelError.self) { try setup.apply(.requestGeometryUpdate(app: "mail", request)) }
        #expect(setup.events.isEmpty, "\(setup.lines)")
        #expect(setup.engine.simulation.state == before.state && setup.engine.simulation.windows == before.windows)
        #expect(setup.engine.simulation.serial == before.serial && setup.engine.openTransitions.isEmpty)
    }

    /// A step that waited but changes nothing when its turn comes (the same size) still completes the
    /// transition its caller was told, at once and with no adapter, so no wait is left hanging.
    @Test func aWaitingStepThatChangesNothingStillCompletesItsTransition() throws {
        var setup = try Setup(adapters: ["mail": ["slow"]], windowing: .stageManager)
        try setup.apply(.beginResize(app: "mail"))
        let first = try setup.step("mail", 600, 500)
        let waiting = try setup.step("mail", 600, 500)
        try setup.report("mail", "slow")
        #expect(setup.completions(of: "mail").map(\.id) == [first[0], waiting[0]])
        #expect(setup.completions(of: "mail").last?.reported == [])
    }

    /// Coverage: the engine adds up every window's mode after each command (the start's included), a refused
    /// command adds none, and text sizes count by band.
    @Test func theEngineCountsTheModesWindowsWereIn() throws {
        var setup = try Setup()
        #expect(setup.engine.driven.isEmpty, "not counted until asked")
        setup.engine.countsCoverage = true
        let start = setup.engine.driven
        #expect(start.map(\.description).sorted() == ["pad landscape one-third compact x regular default",
                                                       "pad landscape two-thirds regular x regular default"])
        try setup.apply(.rotate(.portrait))
        try setup.apply(.setTraits([.contentSize: "accessibility-large", .appearance: "dark"]))
        let before = setup.engine.driven
        #expect(throws: ModelError.self) { try setup.apply(.setDevice("no-such")) }
        #expect(setup.engine.driven == before)
        try setup.apply(.setDevice("iphone-x"))
        let modes = setup.engine.driven.map(\.description)
        #expect(modes.contains("pad portrait two-thirds compact x regular default"))
        #expect(modes.contains("pad portrait one-third compact x regular appearance=dark content-size=accessibility"))
        #expect(modes.contains("phone portrait full compact x regular appearance=dark content-size=accessibility"))
        let never = DrivenMode.neverDriven(setup.engine.driven)
        #expect(never.first { $0.dimension == "device class" }?.values == ["phone-max", "pad-mini", "pad-13"])
        #expect(never.first { $0.dimension == "settings" }?.values.contains("content-size=accessibility") == false)
    }
}
