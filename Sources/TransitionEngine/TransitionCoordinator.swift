import Logging
import TraitModel
import Vocabulary

/// Decides what a plan announces, in UIKit's order, and sees every transition to exactly one completion. A
/// state machine of values, the engine's part that knows the open transitions: it is given the plan and the
/// adapters registered for each window, and returns the events to announce (`EngineEvent`), in order. It knows
/// no bus, no clock and no service.
///
/// For every window that transitions, the model gives the steps (`WindowChange.steps`); the coordinator runs
/// them in phases across windows, as UIKit tells every view controller `willTransition` before any of them
/// lays out:
///   1. monitors unplugged are announced; windows that open appear; lifecycle signals of apps leaving the
///      screen (`WillResignActive`, `DidEnterBackground`) and `WillEnterForeground` of apps coming back;
///   2. each transition's steps before its properties change (`TransitionSteps.beforeProperties`:
///      `WillTransitionToTraitCollection`, `ViewWillTransitionToSize`, the keyboard's `Will` notices), each with
///      its transition id;
///   3. `PropertiesChanged` for the display (always with the new `Serial`) and for each changed window;
///   4. the steps after them (`afterProperties`: `TraitCollectionDidChange`, a `TraitDidChange` per changed trait,
///      `ContentSizeCategoryDidChange` when the text size changed, then `ViewSafeAreaInsetsDidChange`, then
///      `ViewWillLayoutSubviews`, every transition's last signal), then `DidBecomeActive`, then closed windows go
///      (`InterfacesRemoved`);
///   5. completion: a transition completes when every adapter registered for the window when it began has
///      reported (or left the bus), or when its deadline passes; with no adapters, at once.
///      `.completed` (the service's `TransitionCompleted`) comes exactly once per transition;
///   6. monitors plugged in, the monitors' new windows, the settings that changed (the settings portal).
struct TransitionCoordinator: Sendable {
    /// A transition waiting for its adapters.
    struct Open: Sendable {
        let id: UInt64
        /// The adapters registered for the window when the transition began.
        let expected: Set<String>
        private(set) var reported: Set<String> = []
        private(set) var failed: Set<String> = []
        /// Adapters that left (unregistered or disconnected) before reporting: they count as missed.
        private(set) var left: Set<String> = []
        /// The expected adapters that have not reported, failed or left: kept as each does (working it out from
        /// the sets above at every report was O(n) a report, O(n²) a transition).
        private(set) var waiting: Set<String>

        init(id: UInt64, expected: Set<String>) {
            self.id = id
            self.expected = expected
            waiting = expected
        }

        var isSettled: Bool { waiting.isEmpty }

        /// How an adapter stopped being waited for.
        enum Settled { case reported, failed, left }

        /// Records that `adapter` reported, failed or left the bus.
        mutating func record(_ adapter: String, _ settled: Settled) {
            switch settled {
            case .reported: reported.insert(adapter)
            case .failed: failed.insert(adapter)
            case .left: left.insert(adapter)
            }
            waiting.remove(adapter)
        }
    }

    private let logger: Logger
    /// How long a transition waits for its adapters, in seconds.
    let deadline: Double
    /// Ids increase as they are handed out (a reserved one is handed out before its transition begins) and are
    /// never reused within a run.
    private var nextID: UInt64 = 1
    /// The transition still open for each window (app name -> transition); at most one per window.
    private(set) var open: [String: Open] = [:]

    init(deadline: Double, logger: Logger) {
        self.deadline = deadline
        self.logger = logger
    }

    /// `run`, handing each event to `announce` as soon as it is known rather than all at the end: the service
    /// sends a window's will-signals while the rest of the plan is still being encoded, so that its adapters
    /// start laying out sooner (a transition's latency is the service's work before the signal an adapter waits
    /// for, then the adapter's). Returns the ids of the transitions it began, in order. `reserved` (a window
    /// and an id from `reserveID`): that window's transition, if the plan has one, takes that id.
    mutating func run(
        _ plan: Plan, adapters: [String: [String]], reserved: (app: String, id: UInt64)? = nil,
        announce: (EngineEvent) -> Void
    ) -> [UInt64] {
        var began: [UInt64] = []
        var events: [EngineEvent] = []
        func flush() {
            for event in events { announce(event) }
            events.removeAll(keepingCapacity: true)
        }
        // Worked out once: each window's change and its steps.
        let transitions = plan.transitions.map { (change: $0, steps: $0.steps) }
        // 1. Monitors unplugged go first; new windows appear; apps leaving the screen hear it first.
        for id in plan.displaysDisconnected { events.append(.displayDisconnected(id)) }
        for change in plan.windows where change.before == nil {
            if let after = change.after { events.append(.windowOpened(change.app, after)) }
        }
        for change in plan.windows {
            for event in change.lifecycle where event != .didBecomeActive { events.append(.lifecycle(change.app, event)) }
        }
        // 2. The "will" half of every transition, sent window by window.
        var ids: [String: UInt64] = [:]
        for (change, steps) in transitions {
            let id = begin(change.app, expecting: adapters[change.app] ?? [],
                           id: reserved?.app == change.app ? reserved?.id : nil, &events)
            ids[change.app] = id
            began.append(id)
            for step in steps.beforeProperties { events.append(.step(change.app, id: id, step)) }
            flush()
        }
        // 3. The new values.
        events.append(.displayChanged(plan.publishedDisplayChanges, plan.display))
        for change in plan.windows {
            guard let before = change.before, let after = change.after else { continue }
            let changed = after.changes(from: before)
            if !changed.isEmpty { events.append(.windowChanged(change.app, changed, after)) }
            if before.effectiveGeometry != after.effectiveGeometry, before.state != .background || after.state != .background {
                events.append(.effectiveGeometryChanged(change.app, id: ids[change.app] ?? 0, previous: before.effectiveGeometry))
            }
        }
        flush()
        // 4. The "did" half, apps returning become active, closed windows go.
        for (change, steps) in transitions {
            for step in steps.afterProperties { events.append(.step(change.app, id: ids[change.app]!, step)) }
            flush()
        }
        for change in plan.windows where change.lifecycle.contains(.didBecomeActive) {
            events.append(.lifecycle(change.app, .didBecomeActive))
        }
        for app in plan.closed {
            finish(app, &events)
            events.append(.windowClosed(app))
        }

        // 5. Transitions nobody has to report for complete now; the others when their adapters have reported.
        for (change, _) in transitions where open[change.app]?.isSettled == true { finish(change.app, &events) }
        // 6. Monitors plugged in, the monitors' windows, the settings (the portal's `SettingChanged`).
        for display in plan.displaysConnected {
            events.append(.displayConnected(display, windows: plan.displayWindows[display.id] ?? []))
        }
        for id in plan.displayWindows.keys.sorted() { events.append(.displayWindowsChanged(id, plan.displayWindows[id]!)) }
        if !plan.settingsChanged.isEmpty { events.append(.settingsChanged(plan.settingsChanged, plan.display.traits)) }
        flush()
        return began
    }

    /// An id for a transition that has not begun yet: a live-resize step that waits for the window's open
    /// transition is told the id of the transition that will carry it (`run`'s `reserved`), so that its caller
    /// can wait for it. Never used by another transition.
    mutating func reserveID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// A reserved id whose step began no transition (it changed nothing, or no longer applied): it completes at
    /// once, with no adapter, so that whoever waits for it is not left waiting.
    func completeUnused(app: String, id: UInt64) -> [EngineEvent] {
        [.completed(app, TransitionCompletion(id: id, reported: [], failed: [], missed: []))]
    }

    /// The deadline of transition `id` of `app`'s window passed: it completes unless it already has.
    mutating func deadlinePassed(app: String, id: UInt64) -> [EngineEvent] {
        guard open[app]?.id == id else { return [] }
        logger.info("transition \(id) of \(app): deadline passed")
        var events: [EngineEvent] = []
        finish(app, &events)
        return events
    }

    /// Checks that `adapter` may report for transition `id` of `app`'s window now; throws a refusal otherwise.
    func checkReport(app: String, id: UInt64, adapter: String) throws(ReportRefusal) {
        // Transition 0 is the window as it is, outside any transition. While one is open the window is on its
        // way to a geometry the report cannot have been computed for (it answers an older one): published, it
        // would show frames for a window that no longer exists until the adapter's next report.
        if id == 0 {
            guard let transition = open[app] else { return }
            throw .stale("window '\(app)' has transition \(transition.id) open: report for it (transition 0 is for the window outside any transition)")
        }
        guard let transition = open[app], transition.id == id else {
            let now = open[app].map { "; its open transition is \($0.id)" } ?? "; it has no open transition"
            let what = id >= nextID ? "no transition \(id) has begun" : "transition \(id) is not open for window '\(app)'"
            throw .stale("\(what)\(now)")
        }
        if transition.reported.contains(adapter) || transition.failed.contains(adapter) {
            throw .alreadyReported("adapter '\(adapter)' already reported for transition \(id)")
        }
    }

    /// Records an accepted report (after `checkReport`); the transition completes when it was the last.
    mutating func recordReport(app: String, adapter: String, failed: Bool) -> [EngineEvent] {
        // In place: a copy taken out of `open` and put back copied its sets, O(n) a report.
        guard open[app] != nil else { return [] }
        open[app]!.record(adapter, failed ? .failed : .reported)
        var events: [EngineEvent] = []
        if open[app]!.isSettled { finish(app, &events) }
        return events
    }

    /// An adapter of `app` unregistered or left the bus: its open transition stops waiting for it.
    mutating func adapterLeft(app: String, adapter: String) -> [EngineEvent] {
        guard let transition = open[app], transition.expected.contains(adapter),
              !transition.reported.contains(adapter), !transition.failed.contains(adapter) else { return [] }
        open[app]!.record(adapter, .left)
        var events: [EngineEvent] = []
        if open[app]!.isSettled { finish(app, &events) }
        return events
    }

    // MARK: Internals

    /// Opens a transition for `app`, first completing one still open for it: the final state always reflects
    /// the last command, and nothing queues.
    private mutating func begin(
        _ app: String, expecting adapters: [String], id reserved: UInt64?, _ events: inout [EngineEvent]
    ) -> UInt64 {
        finish(app, &events)
        let id = reserved ?? reserveID()
        let transition = Open(id: id, expected: Set(adapters))
        if !transition.isSettled { events.append(.deadlineStarted(app: app, id: id, seconds: deadline)) }
        open[app] = transition
        return id
    }

    /// Completes `app`'s open transition, if any: exactly once, whoever calls first.
    private mutating func finish(_ app: String, _ events: inout [EngineEvent]) {
        guard let transition = open.removeValue(forKey: app) else { return }
        let outcome = TransitionCompletion(
            id: transition.id, reported: transition.reported.sorted(), failed: transition.failed.sorted(),
            missed: transition.expected.subtracting(transition.reported).subtracting(transition.failed).sorted())
        events.append(.completed(app, outcome))
        logger.debug("transition \(transition.id) of \(app) completed: reported \(outcome.reported), missed \(outcome.missed), failed \(outcome.failed)")
    }
}
