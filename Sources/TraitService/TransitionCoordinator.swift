import DBus
import TraitProtocol
import Logging
import TraitModel
import Vocabulary

/// Decides what a plan announces, in UIKit's order, and sees every transition to exactly one
/// `TransitionCompleted`. A state machine of values: it is given the plan and the adapters registered for each
/// window, and returns the events to announce (`TransitionEvent`), in order; the service sends them on the bus
/// and keeps the deadlines' timers. It knows no bus, no clock and no service.
///
/// For every window that transitions, the model gives the steps (`WindowChange.steps`); the coordinator runs
/// them in phases across windows, as UIKit tells every view controller `willTransition` before any of them
/// lays out:
///   1. windows that open are exported (`InterfacesAdded`); lifecycle signals of apps leaving the screen
///      (`WillResignActive`, `DidEnterBackground`) and `WillEnterForeground` of apps coming back;
///   2. each transition's steps before `updateProperties` (`WillTransitionToTraitCollection`,
///      `ViewWillTransitionToSize`), each with its transition id;
///   3. `PropertiesChanged` for the display (always with the new `Serial`) and for each changed window;
///   4. the steps after it (`TraitCollectionDidChange`, a `TraitDidChange` per changed trait,
///      `ContentSizeCategoryDidChange` when the text size changed, then `ViewSafeAreaInsetsDidChange`, then
///      `ViewWillLayoutSubviews`, every transition's last signal), then `DidBecomeActive`, then closed windows go
///      (`InterfacesRemoved`);
///   5. completion: a transition completes when every adapter registered for the window when it began has
///      reported (or left the bus), or when its deadline passes; with no adapters, at once.
///      `.completed` (the service's `TransitionCompleted`) comes exactly once per transition.
struct TransitionCoordinator {
    /// A transition waiting for its adapters.
    struct Open {
        let id: UInt64
        /// The adapters registered for the window when the transition began.
        var expected: Set<String>
        var reported: Set<String> = []
        var failed: Set<String> = []
        /// Adapters that left (unregistered or disconnected) before reporting: they count as missed.
        var left: Set<String> = []

        var isSettled: Bool { expected.isSubset(of: reported.union(failed).union(left)) }
    }

    /// What running a plan began and what to announce for it.
    struct Announcement {
        /// The ids of the transitions it began, in order (what the command's reply carries).
        var began: [UInt64] = []
        /// The events to send, in order.
        var events: [TransitionEvent] = []
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

    /// The announcement of `plan`, with the display as its own stage left it (`plan.display`: its `Serial`,
    /// divider, screen); `adapters` are the adapters registered for each app's window now.
    mutating func run(_ plan: Plan, adapters: [String: [String]]) -> Announcement {
        var out = Announcement()
        out.began = run(plan, adapters: adapters) { out.events.append($0) }
        return out
    }

    /// `run`, handing each event to `announce` as soon as it is known rather than all at the end: the service
    /// sends a window's will-signals while the rest of the plan is still being encoded, so that its adapters
    /// start laying out sooner (a transition's latency is the service's work before the signal an adapter waits
    /// for, then the adapter's). Returns the ids of the transitions it began, in order. `reserved` (a window
    /// and an id from `reserveID`): that window's transition, if the plan has one, takes that id.
    mutating func run(
        _ plan: Plan, adapters: [String: [String]], reserved: (app: String, id: UInt64)? = nil,
        announce: (TransitionEvent) -> Void
    ) -> [UInt64] {
        var began: [UInt64] = []
        var events: [TransitionEvent] = []
        func flush() {
            for event in events { announce(event) }
            events.removeAll(keepingCapacity: true)
        }
        let screen = plan.display.screen
        // 1. New windows appear; apps leaving the screen hear it first.
        for app in plan.opened { events.append(.exported(app)) }
        for change in plan.windows {
            for event in change.lifecycle where event != .didBecomeActive { events.append(Self.lifecycle(change.app, event)) }
        }
        // 2. The "will" half of every transition, sent window by window.
        var ids: [String: UInt64] = [:]
        for change in plan.transitions {
            let id = begin(change.app, expecting: adapters[change.app] ?? [],
                           id: reserved?.app == change.app ? reserved?.id : nil, &events)
            ids[change.app] = id
            began.append(id)
            for step in change.steps.prefix(while: { $0 != .updateProperties }) {
                Self.emit(step, change, id, screen: screen, &events)
            }
            flush()
        }
        // 3. The new values.
        events.append(.displayChanged(Encoding.displayProperties(plan.display, only: plan.publishedDisplayChanges)))
        for change in plan.windows {
            guard let before = change.before, let after = change.after else { continue }
            let changed = after.changes(from: before)
            if !changed.isEmpty {
                events.append(.windowChanged(change.app, Encoding.windowProperties(app: change.app, after, only: changed)))
            }
        }
        flush()
        // 4. The "did" half, apps returning become active, closed windows go.
        for change in plan.transitions {
            for step in change.steps.drop(while: { $0 != .updateProperties }).dropFirst() where step != .complete {
                Self.emit(step, change, ids[change.app]!, screen: nil, &events)
            }
            flush()
        }
        for change in plan.windows where change.lifecycle.contains(.didBecomeActive) {
            events.append(Self.lifecycle(change.app, .didBecomeActive))
        }
        for app in plan.closed {
            finish(app, &events)
            events.append(.unexported(app))
        }
        // 5. Transitions nobody has to report for complete now; the others when their adapters have reported.
        for change in plan.transitions where open[change.app]?.isSettled == true { finish(change.app, &events) }
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
    func completeUnused(app: String, id: UInt64) -> [TransitionEvent] {
        [.completed(app, TransitionCompletion(id: id, reported: [], failed: [], missed: []))]
    }

    /// The deadline of transition `id` of `app`'s window passed: it completes unless it already has.
    mutating func deadlinePassed(app: String, id: UInt64) -> [TransitionEvent] {
        guard open[app]?.id == id else { return [] }
        logger.info("transition \(id) of \(app): deadline passed")
        var events: [TransitionEvent] = []
        finish(app, &events)
        return events
    }

    /// Checks that `adapter` may report for transition `id` of `app`'s window now; throws a refusal otherwise.
    func checkReport(app: String, id: UInt64, adapter: String) throws {
        guard let transition = open[app], transition.id == id else {
            let now = open[app].map { "; its open transition is \($0.id)" } ?? "; it has no open transition"
            let what = id >= nextID ? "no transition \(id) has begun" : "transition \(id) is not open for window '\(app)'"
            throw DBusError(Layout1.Error.staleTransition, "\(what)\(now)")
        }
        if transition.reported.contains(adapter) || transition.failed.contains(adapter) {
            throw DBusError(Layout1.Error.alreadyReported, "adapter '\(adapter)' already reported for transition \(id)")
        }
    }

    /// Records an accepted report (after `checkReport`); the transition completes when it was the last.
    mutating func recordReport(app: String, adapter: String, failed: Bool) -> [TransitionEvent] {
        guard var transition = open[app] else { return [] }
        if failed { transition.failed.insert(adapter) } else { transition.reported.insert(adapter) }
        open[app] = transition
        var events: [TransitionEvent] = []
        if transition.isSettled { finish(app, &events) }
        return events
    }

    /// An adapter of `app` unregistered or left the bus: its open transition stops waiting for it.
    mutating func adapterLeft(app: String, adapter: String) -> [TransitionEvent] {
        guard var transition = open[app], transition.expected.contains(adapter),
              !transition.reported.contains(adapter), !transition.failed.contains(adapter) else { return [] }
        transition.left.insert(adapter)
        open[app] = transition
        var events: [TransitionEvent] = []
        if transition.isSettled { finish(app, &events) }
        return events
    }

    // MARK: Internals

    /// Opens a transition for `app`, first completing one still open for it: the final state always reflects
    /// the last command, and nothing queues.
    private mutating func begin(
        _ app: String, expecting adapters: [String], id reserved: UInt64?, _ events: inout [TransitionEvent]
    ) -> UInt64 {
        finish(app, &events)
        let id = reserved ?? reserveID()
        let transition = Open(id: id, expected: Set(adapters))
        if !transition.isSettled { events.append(.deadlineStarted(app: app, id: id, seconds: deadline)) }
        open[app] = transition
        return id
    }

    /// Completes `app`'s open transition, if any: exactly once, whoever calls first.
    private mutating func finish(_ app: String, _ events: inout [TransitionEvent]) {
        guard let transition = open.removeValue(forKey: app) else { return }
        let outcome = TransitionCompletion(
            id: transition.id, reported: transition.reported.sorted(), failed: transition.failed.sorted(),
            missed: transition.expected.subtracting(transition.reported).subtracting(transition.failed).sorted())
        events.append(.completed(app, outcome))
        logger.debug("transition \(transition.id) of \(app) completed: reported \(outcome.reported), missed \(outcome.missed), failed \(outcome.failed)")
    }

    private static func emit(
        _ step: TransitionStep, _ change: WindowChange, _ id: UInt64, screen: Size?, _ events: inout [TransitionEvent]
    ) {
        switch step {
        case .willTransitionToTraits(let traits):
            events.append(signal(change.app, Window.willTransitionToTraitCollection, (id, traits)))
        case .viewWillTransitionToSize(let size):
            events.append(signal(change.app, Window.viewWillTransitionToSize, (
                id, size.width, size.height, Encoding.context(change.context, window: change.after!, screen: screen)
            )))
        case .traitCollectionDidChange(let previous):
            events.append(signal(change.app, Window.traitCollectionDidChange, (id, previous)))
        case .eachTraitDidChange(let previous):
            for (key, value, old) in Encoding.traitDifferences(from: previous, to: change.after!.traits) {
                events.append(signal(change.app, Window.traitDidChange, (id, key, value, old)))
            }
        case .contentSizeCategoryDidChange(let category):
            events.append(signal(change.app, Window.contentSizeCategoryDidChange, (id, category)))
        case .safeAreaInsetsDidChange(let insets):
            events.append(signal(change.app, Window.viewSafeAreaInsetsDidChange, (id, insets)))
        case .viewWillLayoutSubviews:
            events.append(signal(change.app, Window.viewWillLayoutSubviews, id))
        case .updateProperties, .complete:
            break
        }
    }

    private typealias Window = Layout1.Window

    /// A signal of the app's window, its arguments typed by its declaration.
    private static func signal<Arguments>(
        _ app: String, _ declaration: SignalDeclaration<Arguments>, _ arguments: Arguments
    ) -> TransitionEvent {
        .signal(app, declaration.name, declaration.arguments(arguments))
    }

    private static func lifecycle(_ app: String, _ event: LifecycleEvent) -> TransitionEvent {
        switch event {
        case .willResignActive: return signal(app, Window.willResignActive, ())
        case .didBecomeActive: return signal(app, Window.didBecomeActive, ())
        case .didEnterBackground: return signal(app, Window.didEnterBackground, ())
        case .willEnterForeground: return signal(app, Window.willEnterForeground, ())
        }
    }
}

/// How one transition ended: each adapter registered when it began is in one list.
struct TransitionCompletion: Equatable {
    let id: UInt64
    let reported: [String]
    let failed: [String]
    let missed: [String]
}

/// What the coordinator announces, in order.
enum TransitionEvent: Equatable, CustomStringConvertible {
    /// A window object appears (`InterfacesAdded`) or goes (`InterfacesRemoved`).
    case exported(String), unexported(String)
    /// A signal of the app's window object.
    case signal(String, String, [DBusValue])
    /// `PropertiesChanged` of the display, or of an app's window.
    case displayChanged([String: DBusValue]), windowChanged(String, [String: DBusValue])
    /// Transition `id` of the app's window waits for its adapters at most `seconds` (then `deadlinePassed`).
    case deadlineStarted(app: String, id: UInt64, seconds: Double)
    /// The transition is over (`TransitionCompleted`); its deadline, if it had one, no longer matters.
    case completed(String, TransitionCompletion)

    /// `mail WillTransitionToTraitCollection`, `display changed Arrangement Serial`: the order, for tests.
    var description: String {
        switch self {
        case .exported(let app): return "\(app) exported"
        case .unexported(let app): return "\(app) unexported"
        case .signal(let app, let member, _): return "\(app) \(member)"
        case .displayChanged(let changed): return "display changed " + changed.keys.sorted().joined(separator: " ")
        case .windowChanged(let app, let changed): return "\(app) changed " + changed.keys.sorted().joined(separator: " ")
        case .deadlineStarted(let app, let id, let seconds): return "\(app) deadline #\(id) in \(seconds.compact) s"
        case .completed(let app, _): return "\(app) TransitionCompleted"
        }
    }
}
