import Logging
import TraitModel
import Vocabulary

/// The transition engine: everything between a decoded command and the events to announce, with no bus.
///
/// It owns the simulation, the open transitions (`TransitionCoordinator`), the live-resize steps that wait for
/// a window's open transition, and the windows whose layouts wait to be announced. In: commands, reports,
/// adapters leaving, deadlines passing (the shell's clock calls `deadlinePassed` when a `deadlineStarted` it
/// was given runs out, so a test or a virtual clock drives time by hand). Out: `EngineEvent`s, in order,
/// handed to `emit` as soon as each is known (a window's adapters hear its first signals while the rest of the
/// plan is still being worked out), and for each call the ids of the transitions it began.
///
/// The shell (`DisplayService`) is decode, engine, encode, send: it checks a call's arguments, calls the
/// engine, encodes each event once and puts it on the bus. It also keeps what is its own: adapter
/// registrations (passed in as `adapters`, app -> the adapters registered for its window), the reports' frames
/// and extras, restoration states and the state file.
public struct TransitionEngine: Sendable {
    public private(set) var simulation: Simulation
    var coordinator: TransitionCoordinator
    /// app -> the latest live-resize step that came while the window's transition was open, and the id of the
    /// transition that will carry it (every step it replaced was told the same id).
    var waitingSteps: [String: (size: Size, id: UInt64)] = [:]
    /// app -> the caller of an `EndResize` that came while a step waited: answered (`.answered`) once the step
    /// is applied and the resize ended.
    var endingResizes: [String: UInt64] = [:]
    /// Windows whose layouts changed during their open transition, announced when it completes.
    var layoutsToAnnounce: Set<String> = []
    /// Every mode a window has been in since the engine began counting (`DrivenMode`): what `Coverage` reports.
    /// A reset keeps it, so that a test suite sharing one daemon counts every test's modes. Counted only when
    /// `countsCoverage` (traitd --testing, which serves `Coverage`): a deployed daemon pays nothing for it.
    public private(set) var driven: Set<DrivenMode> = []
    /// The window size classes and breakpoints driven since then (`DrivenAdaptation`), counted with `driven`:
    /// what `AdaptationCoverage` reports.
    public private(set) var adapted: Set<DrivenAdaptation> = []
    public var countsCoverage = false {
        didSet { if countsCoverage && !oldValue { countCoverage() } }
    }

    /// Adds the simulation's modes and adaptations now to those counted. Breakpoints are named by any adapter's
    /// connection and never forgotten: past `maximumAdaptations` only the window size classes are counted, so
    /// that no client can grow the set (and `AdaptationCoverage`'s reply) without bound.
    mutating func countCoverage() {
        driven.formUnion(simulation.drivenModes)
        let now = simulation.drivenAdaptations
        adapted.formUnion(adapted.count < Self.maximumAdaptations ? now : now.filter { $0.windowSizeClass != nil })
    }

    /// The most adaptations coverage counts (window size classes always; breakpoints until then).
    public static let maximumAdaptations = 4096
    let logger: Logger

    /// `deadline`: seconds a transition waits for its adapters.
    public init(simulation: Simulation, deadline: Double, logger: Logger) {
        self.simulation = simulation
        self.logger = logger
        coordinator = TransitionCoordinator(deadline: deadline, logger: logger)
    }

    /// Seconds a transition waits for its adapters.
    public var deadline: Double { coordinator.deadline }

    /// The id of each window's open transition (app -> id).
    public var openTransitions: [String: UInt64] { coordinator.open.mapValues(\.id) }

    // MARK: Commands

    /// Applies `command` and announces its plans, a stage each; returns the ids of the transitions it began.
    /// A refusal throws and changes nothing. Steps that waited for a transition this command completed are
    /// applied after its plans (their events follow).
    public mutating func run(
        _ command: Command, adapters: [String: [String]], emit: (EngineEvent) -> Void
    ) throws(ModelError) -> [UInt64] {
        try run(command, adapters: adapters, reserved: nil, emit: emit)
    }

    mutating func run(
        _ command: Command, adapters: [String: [String]], reserved: (app: String, id: UInt64)?,
        emit: (EngineEvent) -> Void
    ) throws(ModelError) -> [UInt64] {
        let plans = try simulation.apply(command)
        if countsCoverage, !plans.isEmpty { countCoverage() }
        var began: [UInt64] = []
        for plan in plans {
            // Each event goes out as the coordinator makes it; waiting steps only once the whole plan is out.
            var completed: [String] = []
            var layouts = layoutsToAnnounce
            let waiting = waitingSteps, windows = simulation.windows
            began += coordinator.run(plan, adapters: adapters, reserved: reserved) { event in
                Self.relay(event, layouts: &layouts, waiting: waiting, windows: windows, completed: &completed, emit: emit)
            }
            layoutsToAnnounce = layouts
            applyWaitingSteps(of: completed, adapters: { adapters }, emit: emit)
        }
        return began
    }

    // MARK: Reports, adapters, deadlines

    /// Checks that `adapter` may report for transition `id` of `app`'s window now.
    public func checkReport(app: String, id: UInt64, adapter: String) throws(ReportRefusal) {
        try coordinator.checkReport(app: app, id: id, adapter: adapter)
    }

    /// An accepted report (after `checkReport`): with `id` 0 (the window as it is, outside any transition) its
    /// layouts are announced at once; otherwise once, when the transition completes, which it does when this
    /// was the last report it waited for.
    ///
    /// Here and below `adapters` is asked only when a waiting live-resize step is applied (it begins a
    /// transition): a report is the hot path (one per adapter per transition), and the registrations need not
    /// be gathered for each.
    public mutating func reported(
        app: String, id: UInt64, adapter: String, failed: Bool, adapters: () -> [String: [String]],
        emit: (EngineEvent) -> Void
    ) {
        guard id != 0 else { return emit(.layoutsChanged(app)) }
        layoutsToAnnounce.insert(app)
        announce(coordinator.recordReport(app: app, adapter: adapter, failed: failed), adapters: adapters, emit: emit)
    }

    /// An adapter of `app` unregistered or left the bus: its open transition stops waiting for it.
    public mutating func adapterLeft(
        app: String, adapter: String, adapters: () -> [String: [String]], emit: (EngineEvent) -> Void
    ) {
        announce(coordinator.adapterLeft(app: app, adapter: adapter), adapters: adapters, emit: emit)
    }

    /// The deadline of transition `id` of `app`'s window passed (a `deadlineStarted` ran out): it completes
    /// unless it already has.
    public mutating func deadlinePassed(
        app: String, id: UInt64, adapters: () -> [String: [String]], emit: (EngineEvent) -> Void
    ) {
        announce(coordinator.deadlinePassed(app: app, id: id), adapters: adapters, emit: emit)
    }

    // MARK: Internals

    /// Hands `events` on in order, then applies the steps that waited for a transition they completed.
    mutating func announce(_ events: [EngineEvent], adapters: () -> [String: [String]], emit: (EngineEvent) -> Void) {
        var completed: [String] = []
        for event in events {
            Self.relay(event, layouts: &layoutsToAnnounce, waiting: waitingSteps, windows: simulation.windows,
                       completed: &completed, emit: emit)
        }
        applyWaitingSteps(of: completed, adapters: adapters, emit: emit)
    }

    /// Hands one event on: the layouts reported during a transition (`layouts`) go just before its completion,
    /// if its window is still open (`windows`); a window whose transition completed with a step `waiting` is
    /// added to `completed`.
    static func relay(
        _ event: EngineEvent, layouts: inout Set<String>, waiting: [String: (size: Size, id: UInt64)],
        windows: [String: WindowGeometry], completed: inout [String], emit: (EngineEvent) -> Void
    ) {
        if case .completed(let app, _) = event {
            if layouts.remove(app) != nil, windows[app] != nil { emit(.layoutsChanged(app)) }
            emit(event)
            if waiting[app] != nil { completed.append(app) }
            return
        }
        emit(event)
    }
}
