import DBus
import Logging
import TraitConfig
import TraitModel
import Vocabulary
import TraitProtocol
@testable import TraitService
import Testing

/// The coordinator without a bus: what it announces, in order, as an array of events, and its deadlines on a
/// clock the test turns by hand.
@Suite struct TransitionCoordinatorTests {
    final class RecordingSink: TransitionSink {
        var events: [TransitionEvent] = []
        func send(_ event: TransitionEvent) { events.append(event) }

        var lines: [String] { events.map(\.description) }

        /// The `TransitionCompleted` of `app`, decoded as a client would.
        func completions(of app: String) throws -> [(id: UInt64, reported: [String], missed: [String], failed: [String])] {
            try events.compactMap { event in
                guard case .signal(app, "TransitionCompleted", let arguments) = event else { return nil }
                let (id, reported, missed, failed) = try Layout1.Window.transitionCompleted.decode(arguments)
                return (id, reported, missed, failed)
            }
        }
    }

    final class ManualTimer: TransitionTimer {
        var started: [(handle: UInt64, app: String, id: UInt64, seconds: Double)] = []
        var cancelled: Set<UInt64> = []
        func start(after seconds: Double, app: String, id: UInt64) -> UInt64 {
            let handle = UInt64(started.count + 1)
            started.append((handle, app, id, seconds))
            return handle
        }
        func cancel(_ handle: UInt64) { cancelled.insert(handle) }
        var running: [(handle: UInt64, app: String, id: UInt64, seconds: Double)] {
            started.filter { !cancelled.contains($0.handle) }
        }
    }

    struct Setup {
        var simulation: Simulation
        let sink = RecordingSink()
        let timer = ManualTimer()
        let coordinator: TransitionCoordinator

        /// The embedded default (iPad 9.7, landscape, mail two thirds beside notes); `adapters` per app.
        init(adapters: [String: [String]] = [:]) throws {
            simulation = try DaemonConfig.embedded().makeSimulation(catalog: try ProfileLoader.catalog())
            coordinator = TransitionCoordinator(
                sink: sink, timer: timer, deadline: 0.5, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            coordinator.adapters = { adapters[$0] ?? [] }
        }

        mutating func apply(_ command: Command) throws {
            for plan in try simulation.apply(command) {
                coordinator.run(plan)
            }
        }
    }

    @Test func aRotationIsAnnouncedInUIKitsOrder() throws {
        var setup = try Setup()
        try setup.apply(.rotate(.portrait))
        // Both windows change size; mail (694 -> 438 wide) also changes its horizontal size class (the iPad 9.7
        // has no safe area to change). The "will" half of every transition, then the new values (display
        // first), then the "did" half, then completion.
        #expect(setup.sink.lines == [
            "mail WillTransitionToTraitCollection", "mail ViewWillTransitionToSize",
            "notes ViewWillTransitionToSize",
            "display changed DividerPosition Orientation ScreenSize Serial",
            "mail changed Frame HorizontalSizeClass Traits",
            "notes changed Frame",
            "mail TraitCollectionDidChange", "mail ViewWillLayoutSubviews", "notes ViewWillLayoutSubviews",
            "mail TransitionCompleted", "notes TransitionCompleted",
        ])
        // With no adapters, each completes at once, nobody missed, and no deadline was started.
        #expect(try setup.sink.completions(of: "mail").map(\.missed) == [[]])
        #expect(setup.timer.started.isEmpty)
        // The typed arguments as a client decodes them.
        guard case .signal("mail", "ViewWillTransitionToSize", let arguments)? = setup.sink.events.dropFirst().first else {
            Issue.record("no ViewWillTransitionToSize second: \(setup.sink.lines)")
            return
        }
        let (id, width, height, context) = try Layout1.Window.viewWillTransitionToSize.decode(arguments)
        #expect(id == 1 && width == 438 && height == 1024 && context.reason == .rotation && context.orientation == .portrait)
    }

    @Test func aNewCommandCompletesTheOpenTransitionFirst() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar"]])
        try setup.apply(.setArrangement(.splitHalf))
        #expect(try setup.sink.completions(of: "mail").isEmpty, "mail waits for its adapter")
        #expect(setup.timer.running.map(\.app) == ["mail"] && setup.timer.running[0].seconds == 0.5)
        let first = setup.timer.running[0].id
        setup.sink.events = []
        try setup.apply(.setArrangement(.splitTwoThirds))
        // Superseded: completed (sidebar missed it) before the next transition's first signal; its deadline goes.
        #expect(setup.sink.lines.first == "mail TransitionCompleted")
        #expect(try setup.sink.completions(of: "mail").first.map { [$0.id] + [UInt64($0.missed.count)] } == [first, 1])
        #expect(setup.timer.running.count == 1 && setup.timer.running[0].id > first, "ids go up, never reused")
    }

    @Test func theDeadlineCompletesOnceAndReportsAfterItAreStale() throws {
        var setup = try Setup(adapters: ["mail": ["sidebar", "toolbar"]])
        try setup.apply(.setArrangement(.splitHalf))
        let deadline = setup.timer.running[0]
        try setup.coordinator.checkReport(app: "mail", id: deadline.id, adapter: "sidebar")
        setup.coordinator.recordReport(app: "mail", adapter: "sidebar", failed: false)
        #expect(throws: DBusError.self) { try setup.coordinator.checkReport(app: "mail", id: deadline.id, adapter: "sidebar") }
        setup.coordinator.deadlinePassed(app: "mail", id: deadline.id)
        setup.coordinator.deadlinePassed(app: "mail", id: deadline.id)  // a late second firing does nothing
        let completions = try setup.sink.completions(of: "mail")
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
        let mail = try #require(setup.timer.running.first { $0.app == "mail" })
        setup.coordinator.recordReport(app: "mail", adapter: "sidebar", failed: true)
        #expect(try setup.sink.completions(of: "mail").first?.failed == ["sidebar"])
        #expect(setup.timer.cancelled == [mail.handle])
        // An adapter that leaves counts as missed, and completes what waited only for it.
        setup.coordinator.adapterLeft(app: "notes", adapter: "list")
        #expect(try setup.sink.completions(of: "notes").first?.missed == ["list"])
        #expect(setup.timer.running.isEmpty)
    }
}
