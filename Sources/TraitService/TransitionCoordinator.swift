import DBus
import TraitProtocol
import Logging
import TraitModel
import Vocabulary

/// Announces a plan on the bus in UIKit's order and sees every transition to exactly one
/// `TransitionCompleted`.
///
/// For every window that transitions, the model gives the steps (`WindowChange.steps`); the coordinator runs
/// them in phases across windows, as UIKit tells every view controller `willTransition` before any of them
/// lays out:
///   1. windows that open are exported (`InterfacesAdded`); lifecycle signals of apps leaving the screen
///      (`WillResignActive`, `DidEnterBackground`) and `WillEnterForeground` of apps coming back;
///   2. each transition's steps before `updateProperties` (`WillTransitionToTraitCollection`,
///      `ViewWillTransitionToSize`), each with its transition id;
///   3. `PropertiesChanged` for the display (always with the new `Serial`) and for each changed window;
///   4. the steps after it (`TraitCollectionDidChange`, then `ViewSafeAreaInsetsDidChange`, then
///      `ViewWillLayoutSubviews`, every transition's last signal), then `DidBecomeActive`, then closed windows go
///      (`InterfacesRemoved`);
///   5. completion: a transition completes when every adapter registered for the window when it began has
///      reported (or left the bus), or when the deadline passes; with no adapters, at once.
///      `TransitionCompleted(id, reported, missed, failed)` goes out exactly once per transition.
///
/// It announces through a `TransitionSink` and keeps deadlines with a `TransitionTimer`: on the bus in the daemon
/// (`BusTransitionSink`, `DeadlineTimer`), as arrays of events in the unit tests. It runs on the service's
/// thread (the connection's), like everything in the service.
final class TransitionCoordinator {
    /// A transition waiting for its adapters.
    struct Open {
        let id: UInt64
        /// The adapters registered for the window when the transition began.
        var expected: Set<String>
        var reported: Set<String> = []
        var failed: Set<String> = []
        /// Adapters that left (unregistered or disconnected) before reporting: they count as missed.
        var left: Set<String> = []
        var deadline: UInt64?

        var isSettled: Bool { expected.isSubset(of: reported.union(failed).union(left)) }
    }

    let sink: any TransitionSink
    private let timer: any TransitionTimer
    private let logger: Logger
    /// How long a transition waits for its adapters, in seconds.
    let deadline: Double
    /// The adapters registered for an app's window now.
    var adapters: (String) -> [String] = { _ in [] }
    /// Called just before a transition of the app's window completes (the service announces the layouts
    /// reported for it there, once, instead of once per report).
    var willComplete: (String) -> Void = { _ in }
    /// Ids increase and are never reused within a run.
    private var nextID: UInt64 = 1
    /// The transition still open for each window (app name -> transition); at most one per window.
    private(set) var open: [String: Open] = [:]

    init(sink: any TransitionSink, timer: any TransitionTimer, deadline: Double, logger: Logger) {
        self.sink = sink
        self.timer = timer
        self.deadline = deadline
        self.logger = logger
    }

    /// Emits `plan`, with the display as its own stage left it (`plan.display`: its `Serial`, divider, screen).
    /// Returns the ids of the transitions it began, in order (what the command's reply carries).
    @discardableResult
    func run(_ plan: Plan) -> [UInt64] {
        let screen = plan.display.screen
        // 1. New windows appear; apps leaving the screen hear it first.
        for app in plan.opened { sink.send(.exported(app)) }
        for change in plan.windows {
            for event in change.lifecycle where event != .didBecomeActive { lifecycle(change.app, event) }
        }
        // 2. The "will" half of every transition.
        var ids: [String: UInt64] = [:]
        var began: [UInt64] = []
        for change in plan.transitions {
            let id = begin(change.app)
            ids[change.app] = id
            began.append(id)
            for step in change.steps.prefix(while: { $0 != .updateProperties }) {
                emit(step, change, id, screen: screen)
            }
        }
        // 3. The new values.
        sink.send(.displayChanged(Encoding.displayProperties(plan.display, only: plan.publishedDisplayChanges)))
        for change in plan.windows {
            guard let before = change.before, let after = change.after else { continue }
            let changed = after.changes(from: before)
            if !changed.isEmpty { sink.send(.windowChanged(change.app, Encoding.windowProperties(app: change.app, after, only: changed))) }
        }
        // 4. The "did" half, apps returning become active, closed windows go.
        for change in plan.transitions {
            for step in change.steps.drop(while: { $0 != .updateProperties }).dropFirst() where step != .complete {
                emit(step, change, ids[change.app]!, screen: nil)
            }
        }
        for change in plan.windows where change.lifecycle.contains(.didBecomeActive) {
            lifecycle(change.app, .didBecomeActive)
        }
        for app in plan.closed {
            finish(app)
            sink.send(.unexported(app))
        }
        // 5. Transitions nobody has to report for complete now; the others when their adapters have reported.
        for change in plan.transitions where open[change.app]?.isSettled == true { finish(change.app) }
        return began
    }

    /// The timer of transition `id` of `app`'s window went off: it completes unless it already has.
    func deadlinePassed(app: String, id: UInt64) {
        guard open[app]?.id == id else { return }
        logger.info("transition \(id) of \(app): deadline passed")
        finish(app)
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

    /// Records an accepted report (after `checkReport`), and completes the transition when it was the last.
    func recordReport(app: String, adapter: String, failed: Bool) {
        guard var transition = open[app] else { return }
        if failed { transition.failed.insert(adapter) } else { transition.reported.insert(adapter) }
        open[app] = transition
        if transition.isSettled { finish(app) }
    }

    /// An adapter of `app` unregistered or left the bus: its open transition stops waiting for it.
    func adapterLeft(app: String, adapter: String) {
        guard var transition = open[app], transition.expected.contains(adapter),
              !transition.reported.contains(adapter), !transition.failed.contains(adapter) else { return }
        transition.left.insert(adapter)
        open[app] = transition
        if transition.isSettled { finish(app) }
    }

    // MARK: Internals

    /// Opens a transition for `app`, first completing one still open for it: the final state always reflects
    /// the last command, and nothing queues.
    private func begin(_ app: String) -> UInt64 {
        finish(app)
        let id = nextID
        nextID += 1
        var transition = Open(id: id, expected: Set(adapters(app)))
        if !transition.isSettled {
            transition.deadline = timer.start(after: deadline, app: app, id: id)
        }
        open[app] = transition
        return id
    }

    /// Completes `app`'s open transition, if any: exactly once, whoever calls first.
    private func finish(_ app: String) {
        guard let transition = open.removeValue(forKey: app) else { return }
        if let deadline = transition.deadline { timer.cancel(deadline) }
        willComplete(app)
        let reported = transition.reported.sorted()
        let failed = transition.failed.sorted()
        let missed = transition.expected.subtracting(transition.reported).subtracting(transition.failed).sorted()
        signal(app, Window.transitionCompleted, (transition.id, reported, missed, failed))
        logger.debug("transition \(transition.id) of \(app) completed: reported \(reported), missed \(missed), failed \(failed)")
    }

    private func emit(_ step: TransitionStep, _ change: WindowChange, _ id: UInt64, screen: Size?) {
        switch step {
        case .willTransitionToTraits(let traits):
            signal(change.app, Window.willTransitionToTraitCollection, (id, traits))
        case .viewWillTransitionToSize(let size):
            signal(change.app, Window.viewWillTransitionToSize, (
                id, size.width, size.height, Encoding.context(change.context, window: change.after!, screen: screen)
            ))
        case .traitCollectionDidChange(let previous):
            signal(change.app, Window.traitCollectionDidChange, (id, previous))
        case .safeAreaInsetsDidChange(let insets):
            signal(change.app, Window.viewSafeAreaInsetsDidChange, (id, insets))
        case .viewWillLayoutSubviews:
            signal(change.app, Window.viewWillLayoutSubviews, id)
        case .updateProperties, .complete:
            break
        }
    }

    private typealias Window = Layout1.Window

    /// A signal of the app's window, its arguments typed by its declaration.
    private func signal<Arguments>(_ app: String, _ declaration: SignalDeclaration<Arguments>, _ arguments: Arguments) {
        sink.send(.signal(app, declaration.name, declaration.arguments(arguments)))
    }

    private func lifecycle(_ app: String, _ event: LifecycleEvent) {
        switch event {
        case .willResignActive: signal(app, Window.willResignActive, ())
        case .didBecomeActive: signal(app, Window.didBecomeActive, ())
        case .didEnterBackground: signal(app, Window.didEnterBackground, ())
        case .willEnterForeground: signal(app, Window.willEnterForeground, ())
        }
    }
}

/// What the coordinator announces, in order.
enum TransitionEvent: Equatable, CustomStringConvertible {
    /// A window object appears (`InterfacesAdded`) or goes (`InterfacesRemoved`).
    case exported(String), unexported(String)
    /// A signal of the app's window object.
    case signal(String, String, [DBusValue])
    /// `PropertiesChanged` of the display, or of an app's window.
    case displayChanged([String: DBusValue]), windowChanged(String, [String: DBusValue])

    /// `mail WillTransitionToTraitCollection`, `display changed Arrangement Serial`: the order, for tests.
    var description: String {
        switch self {
        case .exported(let app): return "\(app) exported"
        case .unexported(let app): return "\(app) unexported"
        case .signal(let app, let member, _): return "\(app) \(member)"
        case .displayChanged(let changed): return "display changed " + changed.keys.sorted().joined(separator: " ")
        case .windowChanged(let app, let changed): return "\(app) changed " + changed.keys.sorted().joined(separator: " ")
        }
    }
}

/// Where the coordinator's announcements go.
protocol TransitionSink: AnyObject {
    func send(_ event: TransitionEvent)
}

/// The coordinator's deadlines. When one passes, its owner calls `TransitionCoordinator.deadlinePassed` on the
/// coordinator's thread.
protocol TransitionTimer: AnyObject {
    /// Starts the deadline of transition `id` of `app`'s window; returns a handle for `cancel`.
    func start(after seconds: Double, app: String, id: UInt64) -> UInt64
    func cancel(_ handle: UInt64)
}
