import BusValues
import DisplayCore
import LayoutJudge
import Limits
import Logging
import TraitConfig
import TraitModel
import TransitionEngine
import Vocabulary
import Testing

/// The core without a bus: registrations, reports (stale, another's, over budget, failed), restoration states,
/// snapshots and Reset, each input's events and outcome, and every refusal changing nothing.
@Suite struct DisplayCoreTests {
    /// The embedded default (iPad 9.7, landscape, mail two thirds beside notes), and the events it made.
    final class Setup {
        let core: DisplayCore
        var events: [CoreEvent] = []

        init(limits: Limits = Limits()) throws {
            let simulation = try DaemonConfig.embedded().makeSimulation(catalog: try ProfileLoader.catalog())
            core = DisplayCore(simulation: simulation, deadline: 0.5, limits: limits,
                               logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        }

        @discardableResult
        func handle(_ input: DisplayCore.Input) throws(Refusal) -> DisplayCore.Outcome {
            try core.handle(input) { events.append($0) }
        }

        /// `adapter`'s report of `frames` for transition `id` of `app`, from `sender`, judged as the edge would.
        @discardableResult
        func report(_ app: String, _ id: UInt64, _ adapter: String, from sender: String,
                    _ frames: [String: Rect], failure: String? = nil, bytes: Int = 100) throws(Refusal) -> DisplayCore.Outcome {
            try handle(.report(app: app, id: id, adapter: adapter, sender: sender) { window in
                let layout = try ReportedLayout(frames: frames, kinds: [:], scrolledIn: [:], minimumSize: nil, reflow: nil, contentBoxes: [])
                let problems = failure == nil ? LayoutJudge.problems(of: layout, adapter: adapter, in: window) : []
                return LayoutReport(frames: frames, extras: failure.map { ["error": .string($0)] } ?? [:], bytes: bytes,
                                    problems: problems, failure: failure)
            })
        }

        /// The events since the last call, in words.
        func taken() -> [String] {
            defer { events = [] }
            return events.map(\.description)
        }
    }

    /// Everything a refusal must leave as it was.
    struct Observed: Equatable {
        var serial: UInt64
        var state: DisplayState
        var adapters: [AdapterRegistration]
        var reports: [String: [String: LayoutReport]]
        var restoration: RestorationStates
        var snapshots: [String]

        init(_ core: DisplayCore) {
            serial = core.simulation.serial
            state = core.simulation.state
            adapters = core.registry.all
            reports = Dictionary(uniqueKeysWithValues: core.simulation.appNames.compactMap { app in core.reports[app].map { (app, $0) } })
            restoration = core.restoration
            snapshots = core.snapshots.keys.sorted()
        }
    }

    /// Expects `input` to be refused with `kind`, having changed nothing and announced nothing.
    func expectRefused(_ setup: Setup, _ kind: Refusal.Kind, _ input: () throws(Refusal) -> Void,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let before = Observed(setup.core)
        setup.events = []
        do {
            try input()
            Issue.record("not refused", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(Observed(setup.core) == before, "a refusal changed the core", sourceLocation: sourceLocation)
        #expect(setup.events.isEmpty, "a refusal announced \(setup.events)", sourceLocation: sourceLocation)
    }

    /// A registration announces the window's adapters; a transition waits for them; a report completes it,
    /// with its layouts just before the completion; another connection's report, a second one, and one for a
    /// transition that is over are refused and change nothing.
    @Test func aReportCompletesTheTransitionItAnswers() throws {
        let setup = try Setup()
        try setup.handle(.register(app: "mail", adapter: "main", owner: ":1.5"))
        #expect(setup.taken() == ["mail adapters changed"])
        let began = try setup.handle(.command(.rotate(.portrait))).began
        let mailTransition = try #require(setup.core.engine.openTransitions["mail"])
        #expect(began.contains(mailTransition))
        #expect(setup.taken().contains("mail deadline #\(mailTransition) in 0.5 s"))

        expectRefused(setup, .accessDenied) { () throws(Refusal) in
            try setup.report("mail", mailTransition, "main", from: ":1.6", ["a": Rect(x: 0, y: 0, width: 10, height: 10)])
        }
        expectRefused(setup, .noSuchAdapter) { () throws(Refusal) in
            try setup.report("mail", mailTransition, "other", from: ":1.5", [:])
        }
        let outcome = try setup.report("mail", mailTransition, "main", from: ":1.5", ["a": Rect(x: 0, y: 0, width: 10, height: 10)])
        #expect(!outcome.stateChanged)
        // The layouts go with their event: the shell sends them without reading the core.
        guard case .layoutsChanged("mail", let reports)? = setup.events.first else {
            Issue.record("no layouts first: \(setup.events)")
            return
        }
        #expect(reports["main"]?.frames == ["a": Rect(x: 0, y: 0, width: 10, height: 10)])
        #expect(setup.taken() == ["mail layouts changed", "mail completed #\(mailTransition)"])
        #expect(setup.core.reports["mail"]?["main"]?.frames == ["a": Rect(x: 0, y: 0, width: 10, height: 10)])
        expectRefused(setup, .staleTransition) { () throws(Refusal) in
            try setup.report("mail", mailTransition, "main", from: ":1.5", [:])
        }
        let explained = try setup.core.explanation(of: "mail").map(\.description).joined(separator: "\n")
        #expect(explained.contains("transition \(mailTransition):") && explained.contains("completed: reported [main]"), "\(explained)")
    }

    /// A report that would take the window past its byte budget is refused, naming the limit, and nothing is
    /// kept; a failed report is kept without frames' problems and completes the transition as failed.
    @Test func overBudgetAndFailedReports() throws {
        var limits = Limits()
        limits.windowBytes = 1000
        let setup = try Setup(limits: limits)
        try setup.handle(.register(app: "mail", adapter: "main", owner: ":1.5"))
        try setup.handle(.command(.rotate(.portrait)))
        let id = try #require(setup.core.engine.openTransitions["mail"])
        expectRefused(setup, .limitExceeded) { () throws(Refusal) in
            try setup.report("mail", id, "main", from: ":1.5", [:], bytes: 5000)
        }
        setup.events = []
        try setup.report("mail", id, "main", from: ":1.5", [:], failure: "no solution")
        let completion = setup.events.compactMap { event -> TransitionCompletion? in
            if case .engine(.completed(_, let outcome)) = event { outcome } else { nil }
        }
        #expect(completion.map(\.failed) == [["main"]])
        #expect(setup.core.reports["mail"]?["main"]?.failure == "no solution")
    }

    /// The adapter's connection leaves: its registration ends, the open transition stops waiting for it (it
    /// completes with it missed), and its reports go with it.
    @Test func aConnectionThatLeavesTakesItsAdaptersAndReports() throws {
        let setup = try Setup()
        try setup.handle(.register(app: "mail", adapter: "main", owner: ":1.5"))
        try setup.handle(.register(app: "mail", adapter: "side", owner: ":1.6"))
        try setup.report("mail", 0, "main", from: ":1.5", ["a": Rect(x: 0, y: 0, width: 10, height: 10)])
        try setup.handle(.command(.rotate(.portrait)))
        let id = try #require(setup.core.engine.openTransitions["mail"])
        try setup.report("mail", id, "side", from: ":1.6", [:])
        setup.events = []
        try setup.handle(.connectionLeft(":1.5"))
        #expect(setup.taken() == ["mail layouts changed", "mail completed #\(id)", "mail adapters changed with layouts"])
        #expect(setup.core.registry.adapters(for: "mail") == ["side"] && setup.core.reports["mail"]?["main"] == nil)
        try setup.handle(.connectionLeft(":1.9"))  // holds nothing: nothing happens
        #expect(setup.events.isEmpty)
    }

    /// A restoration state is checked, kept, announced and saved; the same again changes nothing; one past its
    /// limit is refused; it goes when its app closes; a snapshot brings it back; Reset clears it.
    @Test func restorationStatesSnapshotsAndReset() throws {
        var limits = Limits()
        limits.restorationBytes = 200
        let setup = try Setup(limits: limits)
        let state = DBusValue.vardict(["scroll": .double(120)])
        #expect(try setup.handle(.setRestoration(app: "mail", state)).stateChanged)
        #expect(setup.core.restoration.totalBytes == state.wireSize && setup.core.totalPublishedBytes == state.wireSize)
        #expect(setup.taken() == ["mail restoration state changed"])
        #expect(try !setup.handle(.setRestoration(app: "mail", state)).stateChanged)
        expectRefused(setup, .limitExceeded) { () throws(Refusal) in
            try setup.handle(.setRestoration(app: "mail", .vardict(["big": .string(String(repeating: "x", count: 300))])))
        }
        expectRefused(setup, .invalidArgs) { () throws(Refusal) in try setup.handle(.setRestoration(app: "mail", .string("x"))) }
        try setup.handle(.saveSnapshot("before"))
        #expect(try setup.handle(.command(.closeApp("mail"))).stateChanged)
        #expect(setup.core.restoration["mail"] == nil && setup.core.restoration.totalBytes == 0)
        expectRefused(setup, .noSuchApp) { () throws(Refusal) in _ = try setup.core.restorationState(of: "mail") }
        expectRefused(setup, .invalidArgs) { () throws(Refusal) in try setup.handle(.restoreSnapshot("nope")) }
        try setup.handle(.restoreSnapshot("before"))
        #expect(try setup.core.restorationState(of: "mail") == ["scroll": .double(120)])
        try setup.handle(.reset)
        #expect(setup.core.restoration["mail"] == nil)
        #expect(setup.taken().contains("mail restoration state changed"))
    }

    /// A command the model refuses is the core's refusal, of the model's kind, and changes nothing.
    @Test func aModelRefusalChangesNothing() throws {
        let setup = try Setup()
        expectRefused(setup, .model(.noSuchApp("no app 'maps' is open; open apps: mail, notes"))) { () throws(Refusal) in
            try setup.handle(.command(.closeApp("maps")))
        }
    }
}
