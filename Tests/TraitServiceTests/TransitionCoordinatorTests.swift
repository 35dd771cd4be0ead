import DBus
import Logging
import TraitConfig
import TraitModel
import Vocabulary
import TraitProtocol
@testable import TraitService
import Testing

/// The coordinator without a bus: what it announces, in order, as the values it returns, and its deadlines as
/// events the test fires by hand.
@Suite struct TransitionCoordinatorTests {
    struct Setup {
        var simulation: Simulation
        var coordinator = TransitionCoordinator(
            deadline: 0.5, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let adapters: [String: [String]]
        /// Everything announced so far, in order.
        var events: [TransitionEvent] = []

        /// The embedded default (iPad 9.7, landscape, mail two thirds beside notes); `adapters` per app.
        init(adapters: [String: [String]] = [:]) throws {
            simulation = try DaemonConfig.embedded().makeSimulation(catalog: try ProfileLoader.catalog())
            self.adapters = adapters
        }

        mutating func apply(_ command: Command) throws {
            for plan in try simulation.apply(command) {
                events += coordinator.run(plan, adapters: adapters).events
            }
        }

        mutating func report(_ app: String, _ adapter: String, failed: Bool = false) {
            events += coordinator.recordReport(app: app, adapter: adapter, failed: failed)
        }

        mutating func deadlinePassed(_ app: String, _ id: UInt64) { events += coordinator.deadlinePassed(app: app, id: id) }

        mutating func adapterLeft(_ app: String, _ adapter: String) { events += coordinator.adapterLeft(app: app, adapter: adapter) }

        /// What reaches the bus, in order (the deadlines are the service's timers, not bus traffic).
        var lines: [String] {
            events.filter { if case .deadlineStarted = $0 { false } else { true } }.map(\.description)
        }

        func completions(of app: String) -> [TransitionCompletion] {
            events.compactMap { if case .completed(app, let outcome) = $0 { outcome } else { nil } }
        }

        /// Every deadline started, and those whose transition has not completed yet.
        var started: [(app: String, id: UInt64, seconds: Double)] {
            events.compactMap { if case .deadlineStarted(let app, let id, let seconds) = $0 { (app, id, seconds) } else { nil } }
        }
        var running: [(app: String, id: UInt64, seconds: Double)] {
            let completed = Set(events.compactMap { if case .completed(_, let outcome) = $0 { outcome.id } else { nil } })
            return started.filter { !completed.contains($0.id) }
        }
    }

    @Test func aRotationIsAnnouncedInUIKitsOrder() throws {
        var setup = try Setup()
        try setup.apply(.rotate(.portrait))
        // Both windows change size; mail (694 -> 438 wide) also changes its horizontal size class (the iPad 9.7
        // has no safe area to change). The "will" half of every transition, then the new values (display
        // first), then the "did" half, then completion.
        #expect(setup.lines == [
            "mail WillTransitionToTraitCollection", "mail ViewWillTransitionToSize",
            "notes ViewWillTransitionToSize",
            "display changed DividerPosition Orientation ScreenSize Serial",
            "mail changed Frame HorizontalSizeClass Traits",
            "notes changed Frame",
            "mail TraitCollectionDidChange", "mail TraitDidChange", "mail ViewWillLayoutSubviews", "notes ViewWillLayoutSubviews",
            "mail TransitionCompleted", "notes TransitionCompleted",
        ])
        // With no adapters, each completes at once, nobody missed, and no deadline was started.
        #expect(setup.completions(of: "mail").map(\.missed) == [[]])
        #expect(setup.started.isEmpty)
        // The typed arguments as a client decodes them.
        guard case .signal("mail", "ViewWillTransitionToSize", let arguments)? = setup.events.dropFirst().first else {
            Issue.record("no ViewWillTransitionToSize second: \(setup.lines)")
            return
        }
        let (id, width, height, context) = try Layout1.Window.viewWillTransitionToSize.decode(arguments)
        #expect(id == 1 && width == 438 && height == 1024 && context.reason == .rotation && context.orientation == .portrait)
    }

    @Test func aNewCommandCompletesTheOpenTransitionFirst() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar"]])
        try setup.apply(.setArrangement(.splitHalf))
        #expect(setup.completions(of: "mail").isEmpty, "mail waits for its adapter")
        #expect(setup.running.map(\.app) == ["mail"] && setup.running[0].seconds == 0.5)
        let first = setup.running[0].id
        setup.events = []
        try setup.apply(.setArrangement(.splitTwoThirds))
        // Superseded: completed (sidebar missed it) before the next transition's first signal; its deadline goes.
        #expect(setup.lines.first == "mail TransitionCompleted")
        #expect(setup.completions(of: "mail").first.map { [$0.id] + [UInt64($0.missed.count)] } == [first, 1])
        #expect(setup.running.count == 1 && setup.running[0].id > first, "ids go up, never reused")
    }

    @Test func theDeadlineCompletesOnceAndReportsAfterItAreStale() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar", "toolbar"]])
        try setup.apply(.setArrangement(.splitHalf))
        let deadline = setup.running[0]
        try setup.coordinator.checkReport(app: "mail", id: deadline.id, adapter: "sidebar")
        setup.report("mail", "sidebar")
        #expect(throws: DBusError.self) { try setup.coordinator.checkReport(app: "mail", id: deadline.id, adapter: "sidebar") }
        setup.deadlinePassed("mail", deadline.id)
        setup.deadlinePassed("mail", deadline.id)  // a late second firing does nothing
        let completions = setup.completions(of: "mail")
        #expect(completions.count == 1)
        #expect(completions.first?.reported == ["sidebar"] && completions.first?.missed == ["toolbar"])
        let stale = #expect(throws: DBusError.self) {
            try setup.coordinator.checkReport(app: "mail", id: deadline.id, adapter: "toolbar")
        }
        #expect(stale?.name == Layout1.Error.staleTransition)
    }

    @Test func theLastReportCompletesAtOnceAndCancelsTheDeadline() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar"], "notes": ["list"]])
        try setup.apply(.setArrangement(.splitHalf))
        let mail = try #require(setup.running.first { $0.app == "mail" })
        setup.report("mail", "sidebar", failed: true)
        #expect(setup.completions(of: "mail").first?.failed == ["sidebar"])
        #expect(!setup.running.contains { $0.id == mail.id }, "its deadline goes with it")
        // An adapter that leaves counts as missed, and completes what waited only for it.
        setup.adapterLeft("notes", "list")
        #expect(setup.completions(of: "notes").first?.missed == ["list"])
        #expect(setup.running.isEmpty)
    }
}
