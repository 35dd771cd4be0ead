import BusValues
import LayoutJudge
import Limits
import Logging
import TraitModel
import TransitionEngine
import Vocabulary

/// Everything the daemon knows, with no bus: the transition engine (which holds the simulation), who is
/// registered as which adapter, the reports accepted and what the judge found in them, every app's restoration
/// state, the snapshots, each window's last transition, and whether the state to save changed.
///
/// One entry point, `handle`: every input (a command, a report, a registration, an adapter leaving, a
/// restoration state, a deadline, a reset or a snapshot) goes in; events come out, in order, as each is known
/// (`CoreEvent`), and the input's outcome is returned. A refusal (`Refusal`) throws and changes nothing. The
/// shell (`DisplayService`) decodes a call into an input, hands it here, and encodes and sends what comes out;
/// `DisplayCoreTests` drive it without a bus.
///
/// A class, not a struct, so that the events handed out while the engine runs can be followed by reads of what
/// is not the engine's (a window's adapters and reports, which the shell publishes with the engine's events):
/// each stored property is its own access, and only `engine` is busy while it runs.
public final class DisplayCore {
    /// The engine: the simulation, the open transitions and the steps that wait for them.
    public private(set) var engine: TransitionEngine
    /// Who is registered as which adapter for which app.
    public private(set) var registry: AdapterRegistry
    /// app -> adapter -> its latest accepted report.
    public private(set) var reports = LayoutReports()
    /// app -> its restoration state.
    public private(set) var restoration: RestorationStates
    /// `SaveSnapshot`'s: name -> the display and the restoration states.
    public private(set) var snapshots: [String: Snapshot] = [:]
    /// app -> what its latest transition changed and how it completed, for `Explain`.
    public private(set) var notes: [String: TransitionNote] = [:]
    /// What checks what clients ask to publish (reports, restoration states) against the configured limits.
    public let budget: PublishBudget
    /// Which layout checks the run makes, by which rule (`layout-checks:`); the edge judges reports by them.
    public let layoutChecks: LayoutChecks
    /// What `Reset` goes back to: the configuration's starting state.
    let startingState: DisplayState
    /// A report with layout problems counts as failed (`--strict-layouts`).
    let strictLayouts: Bool
    let maximumSnapshots: Int
    let logger: Logger
    /// The serial of the state last handed out to be saved (`Outcome.stateChanged`).
    private var savedSerial: UInt64

    /// The display and the restoration states as `SaveSnapshot` found them.
    public struct Snapshot: Sendable, Equatable {
        public var state: DisplayState
        public var restoration: RestorationStates
    }

    /// What the core is handed: every way the daemon's state can be asked to change.
    public enum Input {
        /// A command of the model (`SetDevice`, `Rotate`, `SetTraits`...), from a client or the desktop.
        case command(Command)
        /// A live-resize step (`ResizeTo`): applied now, or kept while the window's transition is open.
        case resizeStep(app: String, Size)
        /// `EndResize`; `caller` names the call if it is answered later (`.answered`).
        case endResize(app: String, caller: UInt64)
        case register(app: String, adapter: String, owner: String)
        case unregister(app: String, adapter: String, caller: String)
        /// A connection left the bus: its registrations end.
        case connectionLeft(String)
        /// `ReportLayout` from `sender`, for transition `id` (0: the window as it is). `read` checks and reads the
        /// report's frames and extras and judges them against the window it answers (the edge's parsing, asked
        /// for once the registration is known to be the sender's).
        case report(app: String, id: UInt64, adapter: String, sender: String,
                    read: (PublishedWindow) throws -> LayoutReport)
        /// `SetRestorationState`: the value as received (an `a{sv}`, checked here).
        case setRestoration(app: String, DBusValue)
        /// A transition's deadline passed (a `deadlineStarted` ran out on the shell's clock).
        case deadlinePassed(app: String, id: UInt64)
        /// `Reset`: the configuration's starting state, no restoration states.
        case reset
        case saveSnapshot(String)
        case restoreSnapshot(String)

        /// Whether the input is a command a client waits on, whose signals are that command's in the journal.
        public var isCommand: Bool {
            switch self {
            case .command, .resizeStep, .endResize, .reset, .restoreSnapshot: true
            case .register, .unregister, .connectionLeft, .report, .setRestoration, .deadlinePassed, .saveSnapshot: false
            }
        }
    }

    /// What an input came to.
    public struct Outcome: Sendable, Equatable {
        /// The transitions it began (a command's reply names them).
        public var began: [UInt64] = []
        /// `EndResize`: nil while a step waits (the call is answered later, by `.answered`).
        public var ended: [UInt64]? = []
        /// Whether the state to save changed (the display, or a restoration state).
        public var stateChanged = false
        /// Calls that waited and are answered now (`EndResize` once the step it waited for was applied), to be
        /// replied to once the state is saved.
        public var answered: [Answer] = []
    }

    /// A waiting call's answer: the transitions it settled, or why it failed.
    public struct Answer: Sendable, Equatable {
        public var caller: UInt64
        public var result: Result<[UInt64], Refusal>
    }

    public init(
        simulation: Simulation, deadline: Double, limits: Limits, strictLayouts: Bool = false,
        startingState: DisplayState? = nil, restoration: [String: [String: DBusValue]] = [:],
        countsCoverage: Bool = false, maximumSnapshots: Int = 64, layoutChecks: LayoutChecks = LayoutChecks(), logger: Logger
    ) {
        self.layoutChecks = layoutChecks
        engine = TransitionEngine(simulation: simulation, deadline: deadline, logger: logger)
        engine.countsCoverage = countsCoverage
        registry = AdapterRegistry(limits: limits)
        budget = PublishBudget(limits: limits)
        self.restoration = RestorationStates(restoration).kept(by: simulation)
        self.startingState = startingState ?? simulation.state
        self.strictLayouts = strictLayouts
        self.maximumSnapshots = maximumSnapshots
        self.logger = logger
        savedSerial = simulation.serial
    }

    /// The simulation the engine holds.
    public var simulation: Simulation { engine.simulation }

    /// Handles one input: events go to `emit` in order as they are made, the outcome comes back. A refusal
    /// throws and has changed nothing (and sent nothing).
    public func handle(_ input: Input, emit: (CoreEvent) -> Void) throws(Refusal) -> Outcome {
        var outcome = Outcome()
        func observed(_ event: EngineEvent) {
            if case .answered(let caller, let result) = event {
                return outcome.answered.append(Answer(caller: caller, result: result.mapError(Refusal.init)))
            }
            observe(event)
            if case .layoutsChanged(let app) = event { return emit(.layoutsChanged(app, reports[app] ?? [:])) }
            emit(.engine(event))
        }
        switch input {
        case .command(let command):
            outcome.began = try run { engine, adapters throws(ModelError) in try engine.run(command, adapters: adapters, emit: observed) }
        case .resizeStep(let app, let size):
            outcome.began = try run { engine, adapters throws(ModelError) in
                try engine.resizeStep(app, to: size, adapters: adapters, emit: observed)
            }
        case .endResize(let app, let caller):
            outcome.ended = try run { engine, adapters throws(ModelError) in
                try engine.endResize(app, caller: caller, adapters: adapters, emit: observed)
            }
        case .register(let app, let adapter, let owner):
            guard try registry.register(app: app, adapter: adapter, owner: owner) else { break }
            logger.info("adapter \(adapter) registered for \(app) by \(owner)")
            adaptersChanged(app, layoutsToo: false, emit)
        case .unregister(let app, let adapter, let caller):
            try registry.unregister(app: app, adapter: adapter, caller: caller)
            logger.info("adapter \(adapter) for \(app) unregistered by \(caller)")
            adapterGone(app: app, adapter: adapter, observed, emit)
        case .connectionLeft(let name):
            let gone = registry.removeOwner(name)
            guard !gone.isEmpty else { break }
            logger.info("\(name) left the bus; its adapters end: \(gone.map { "\($0.adapter) (\($0.app))" }.joined(separator: ", "))")
            for registration in gone { adapterGone(app: registration.app, adapter: registration.adapter, observed, emit) }
        case .report(let app, let id, let adapter, let sender, let read):
            try report(app: app, id: id, adapter: adapter, sender: sender, read: read, observed)
        case .setRestoration(let app, let value):
            outcome.stateChanged = try setRestoration(app, value, emit)
            return outcome
        case .deadlinePassed(let app, let id):
            engine.deadlinePassed(app: app, id: id, adapters: { registry.adaptersByApp }, emit: observed)
        case .reset:
            outcome.began = try run { engine, adapters throws(ModelError) in
                try engine.run(.restore(startingState), adapters: adapters, emit: observed)
            }
            replaceRestoration(with: RestorationStates(), emit)
            outcome.stateChanged = true
        case .saveSnapshot(let name):
            guard snapshots[name] != nil || snapshots.count < maximumSnapshots else {
                throw Refusal(.limitExceeded, "traitd keeps at most \(maximumSnapshots) snapshots; restore or replace one of: "
                              + snapshots.keys.sorted().joined(separator: ", "))
            }
            snapshots[name] = Snapshot(state: simulation.state, restoration: restoration)
            logger.info("saved snapshot \(name) at serial \(simulation.serial)")
            return outcome
        case .restoreSnapshot(let name):
            guard let snapshot = snapshots[name] else {
                let kept = snapshots.keys.sorted()
                throw Refusal(.invalidArgs, "no snapshot '\(name)'; snapshots: " + (kept.isEmpty ? "none" : kept.joined(separator: ", ")))
            }
            outcome.began = try run { engine, adapters throws(ModelError) in
                try engine.run(.restore(snapshot.state), adapters: adapters, emit: observed)
            }
            replaceRestoration(with: snapshot.restoration, emit)
            outcome.stateChanged = true
        }
        if simulation.serial != savedSerial {
            // Restoration states of apps that are gone go with them.
            restoration = restoration.kept(by: simulation)
            outcome.stateChanged = true
        }
        if outcome.stateChanged { savedSerial = simulation.serial }
        return outcome
    }

    // MARK: Reading

    /// `Explain`: the model's reasons for the window's geometry, then its last transition, its adapters' reports
    /// and their problems; `NoSuchApp` for a window that has gone.
    public func explanation(of app: String) throws(Refusal) -> [Explanation] {
        guard var lines = simulation.explain(app) else { throw Refusal(.noSuchApp, "app '\(app)' has no window") }
        if let last = notes[app] {
            let changed = last.changes.isEmpty ? "no size or trait change" : last.changes.joined(separator: "; ")
            lines.append(Explanation("lastTransition", "transition \(last.id): \(changed); "
                               + (last.outcome.map { "completed: \($0)" } ?? "still open, waiting for its adapters")))
        } else {
            lines.append(Explanation("lastTransition", "none since traitd started"))
        }
        let reports = self.reports[app] ?? [:]
        if reports.isEmpty {
            let registered = registry.adapters(for: app)
            lines.append(Explanation("layouts", registered.isEmpty ? "no adapter is registered for it"
                               : "no report yet from \(registered.joined(separator: ", "))"))
        }
        for adapter in reports.keys.sorted() {
            let report = reports[adapter]!
            lines.append(Explanation("layouts", report.failure.map { "\(adapter) failed: \($0)" }
                               ?? "\(adapter) reported \(report.frames.count) element(s): " + report.frames.keys.sorted().joined(separator: ", ")))
        }
        let problems = reports.keys.sorted().flatMap { reports[$0]!.problems }
        lines += problems.isEmpty ? [Explanation("problems", "none in the latest reports")]
            : problems.map { Explanation("problems", "\($0.adapter) \($0.element) \($0.rule): \($0.message)") }
        return lines
    }

    /// `GetRestorationState(app)`: the state of an app on screen or in the background (which has no window
    /// object to read it from). Any other app has none to keep: `NoSuchApp`, naming the apps that have one.
    public func restorationState(of app: String) throws(Refusal) -> [String: DBusValue] {
        guard simulation.windows[app] != nil || simulation.state.background.contains(app) else {
            let open = simulation.appNames.isEmpty ? "none" : simulation.appNames.joined(separator: ", ")
            let background = simulation.state.background.isEmpty ? "none" : simulation.state.background.joined(separator: ", ")
            throw Refusal(.noSuchApp, "app '\(app)' is neither open nor in the background (open: \(open); background: \(background))")
        }
        return restoration[app] ?? [:]
    }

    /// Bytes `app`'s window publishes from its clients: its restoration state and every adapter's report.
    public func publishedBytes(_ app: String) -> Int { restoration.bytes(of: app) + reports.bytes(of: app) }

    /// The same for every window and app in the background.
    public var totalPublishedBytes: Int { reports.totalBytes + restoration.totalBytes }

    // MARK: Inputs

    /// Runs the engine with the adapters registered now; the model's refusal becomes the core's.
    private func run<Result>(
        _ body: (inout TransitionEngine, [String: [String]]) throws(ModelError) -> Result
    ) throws(Refusal) -> Result {
        do {
            return try body(&engine, registry.adaptersByApp)
        } catch {
            throw Refusal(error)
        }
    }

    /// Notes what the engine's events say of each window's last transition, and forgets a closed window's.
    private func observe(_ event: EngineEvent) {
        switch event {
        case .step(let app, let id, let step):
            if notes[app]?.id != id { notes[app] = TransitionNote(id: id) }
            notes[app]?.steps.append(step)
        case .completed(let app, let outcome):
            if notes[app]?.id == outcome.id { notes[app]?.completion = outcome }
        case .windowClosed(let app):
            reports.removeAll(of: app)
            notes[app] = nil
        default:
            break
        }
    }

    private func adapterGone(app: String, adapter: String, _ observed: (EngineEvent) -> Void, _ emit: (CoreEvent) -> Void) {
        engine.adapterLeft(app: app, adapter: adapter, adapters: { registry.adaptersByApp }, emit: observed)
        // Its frames were computed for sizes it will no longer follow: they go with it.
        reports.remove(app: app, adapter: adapter)
        adaptersChanged(app, layoutsToo: true, emit)
    }

    private func adaptersChanged(_ app: String, layoutsToo: Bool, _ emit: (CoreEvent) -> Void) {
        guard simulation.windows[app] != nil else { return }
        emit(.adaptersChanged(app, adapters: registry.adapters(for: app), reports: layoutsToo ? reports[app] ?? [:] : nil))
    }

    /// Accepts an adapter's layout for transition `id` (or, with id 0, for the window's current geometry
    /// outside any transition: refused while one is open). Checks in order: the adapter is registered for this
    /// app, by the sender; the report is well formed (`read`); the budget; the transition is open and the
    /// adapter has not reported for it yet. A refused report changes nothing.
    private func report(
        app: String, id: UInt64, adapter: String, sender: String, read: (PublishedWindow) throws -> LayoutReport,
        _ observed: (EngineEvent) -> Void
    ) throws(Refusal) {
        guard let owner = registry.owner(app: app, adapter: adapter) else {
            throw Refusal(.noSuchAdapter, "no adapter '\(adapter)' is registered for app '\(app)'; call RegisterAdapter first")
        }
        guard owner == sender else {
            throw Refusal(.accessDenied, "adapter '\(adapter)' for app '\(app)' belongs to \(owner); only it may report for it")
        }
        guard let window = simulation.windows[app] else { throw Refusal(.noSuchApp, "app '\(app)' has no window") }
        // Judged against what the window shows now, which is what the open transition published.
        let report = try Refusal.of {
            try read(PublishedWindow(
                size: window.frame.size, safeAreaInsets: window.safeArea, idiom: window.traits.idiom,
                dockedKeyboard: window.dockedKeyboard, windowControls: window.windowControls))
        }
        let old = reports[app]?[adapter]?.bytes ?? 0
        try Refusal.of { try budget.checkTotals(app: app, window: publishedBytes(app) - old + report.bytes,
                                             total: totalPublishedBytes - old + report.bytes) }
        do {
            try engine.checkReport(app: app, id: id, adapter: adapter)
        } catch {
            switch error {
            case .stale(let message): throw Refusal(.staleTransition, message)
            case .alreadyReported(let message): throw Refusal(.alreadyReported, message)
            }
        }
        reports.set(report, app: app, adapter: adapter)
        if let failure = report.failure {
            logger.info("adapter \(adapter) failed to lay out \(app) for transition \(id): \(failure)")
        } else {
            logger.debug("adapter \(adapter) reported \(report.frames.count) frame(s) for \(app), transition \(id)")
        }
        for problem in report.problems {
            logger.info("\(app) transition \(id): \(problem.rule) in \(adapter)'s \(problem.element): \(problem.message)")
        }
        let failed = report.failure != nil || (strictLayouts && !report.problems.isEmpty)
        // Announced at once for id 0; otherwise once, when the transition completes, rather than once per report.
        engine.reported(app: app, id: id, adapter: adapter, failed: failed, adapters: { registry.adaptersByApp }, emit: observed)
    }

    /// Replaces `app`'s restoration state; returns whether it changed. Checked first, on the decoded value: its
    /// depth (`value-depth`), its size (`restoration-bytes`) and what its window and all windows would then
    /// publish (`window-bytes`, `total-bytes`).
    private func setRestoration(_ app: String, _ value: DBusValue, _ emit: (CoreEvent) -> Void) throws(Refusal) -> Bool {
        guard let state = try Refusal.of({ try value.uniqueDictionary("the restoration state") }) else {
            throw Refusal(.invalidArgs, "the restoration state must be a{sv}")
        }
        let bytes = DBusValue.vardict(state).wireSize
        try Refusal.of {
            try budget.checkDepth(value, "the restoration state")
            try budget.checkBytes(bytes, "the restoration state", limit: budget.limits.restorationBytes, key: "restoration-bytes")
            let old = restoration.bytes(of: app)
            try budget.checkTotals(app: app, window: publishedBytes(app) - old + bytes, total: totalPublishedBytes - old + bytes)
        }
        guard state != restoration[app] ?? [:] else { return false }
        restoration.set(state, of: app, bytes: bytes)
        logger.debug("the restoration state of \(app) set: \(state.count) key(s), \(bytes) bytes")
        emit(.restorationChanged(app, state))
        return true
    }

    /// Every app's restoration state replaced by `states` (kept for the apps open or in the background), each
    /// open window whose state changed announced.
    private func replaceRestoration(with states: RestorationStates, _ emit: (CoreEvent) -> Void) {
        let before = restoration
        restoration = states.kept(by: simulation)
        for app in simulation.appNames where before[app] != restoration[app] { emit(.restorationChanged(app, restoration[app] ?? [:])) }
    }
}
