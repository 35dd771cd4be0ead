import DBus
import Logging
import TraitModel

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
///   4. the steps after it (`TraitCollectionDidChange`, then `ViewSafeAreaInsetsDidChange`), then `DidBecomeActive`, then closed windows go
///      (`InterfacesRemoved`);
///   5. completion: a transition completes when every adapter registered for the window when it began has
///      reported (or left the bus), or when the deadline passes; with no adapters, at once.
///      `TransitionCompleted(id, reported, missed, failed)` goes out exactly once per transition.
///
/// Runs on the connection's thread, like everything in the service.
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

    private let server: ObjectServer
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

    init(server: ObjectServer, deadline: Double, logger: Logger) {
        self.server = server
        self.deadline = deadline
        self.logger = logger
    }

    /// Emits `plan`. `export` publishes a newly opened window's object.
    func run(_ plan: Plan, displayProperties: [String: DBusValue], export: (String) -> Void) {
        // 1. New windows appear; apps leaving the screen hear it first.
        for app in plan.opened { export(app) }
        for change in plan.windows {
            for event in change.lifecycle where event != .didBecomeActive { signal(change.app, event.rawValue, []) }
        }
        // 2. The "will" half of every transition.
        var ids: [String: UInt64] = [:]
        for change in plan.transitions {
            let id = begin(change.app)
            ids[change.app] = id
            for step in change.steps.prefix(while: { $0 != .updateProperties }) {
                emit(step, change, id, screen: displayProperties["ScreenSize"])
            }
        }
        // 3. The new values.
        let names = Encoding.displayPropertyNames(plan.displayChanges)
        server.propertiesChanged(
            path: Layout1.rootPath, interface: Layout1.displayInterface,
            displayProperties.filter { names.contains($0.key) })
        for change in plan.windows {
            guard let before = change.before, let after = change.after else { continue }
            let old = Encoding.windowProperties(app: change.app, before)
            server.propertiesChanged(
                path: Layout1.windowPath(change.app), interface: Layout1.windowInterface,
                Encoding.windowProperties(app: change.app, after).filter { old[$0.key] != $0.value })
        }
        // 4. The "did" half, apps returning become active, closed windows go.
        for change in plan.transitions {
            for step in change.steps.drop(while: { $0 != .updateProperties }).dropFirst() where step != .complete {
                emit(step, change, ids[change.app]!, screen: nil)
            }
        }
        for change in plan.windows where change.lifecycle.contains(.didBecomeActive) {
            signal(change.app, LifecycleEvent.didBecomeActive.rawValue, [])
        }
        for app in plan.closed {
            finish(app)
            server.unexport(Layout1.windowPath(app))
        }
        // 5. Transitions nobody has to report for complete now; the others when their adapters have reported.
        for change in plan.transitions where open[change.app]?.isSettled == true { finish(change.app) }
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
            transition.deadline = server.connection.schedule(after: deadline) { [weak self] in
                guard let self, self.open[app]?.id == id else { return }
                self.logger.info("transition \(id) of \(app): deadline passed")
                self.finish(app)
            }
        }
        open[app] = transition
        return id
    }

    /// Completes `app`'s open transition, if any: exactly once, whoever calls first.
    private func finish(_ app: String) {
        guard let transition = open.removeValue(forKey: app) else { return }
        if let timer = transition.deadline { server.connection.cancel(timer: timer) }
        willComplete(app)
        let reported = transition.reported.sorted()
        let failed = transition.failed.sorted()
        let missed = transition.expected.subtracting(transition.reported).subtracting(transition.failed).sorted()
        signal(app, "TransitionCompleted", [.uint64(transition.id), .strings(reported), .strings(missed), .strings(failed)])
        logger.debug("transition \(transition.id) of \(app) completed: reported \(reported), missed \(missed), failed \(failed)")
    }

    private func emit(_ step: TransitionStep, _ change: WindowChange, _ id: UInt64, screen: DBusValue?) {
        switch step {
        case .willTransitionToTraits(let traits):
            signal(change.app, "WillTransitionToTraitCollection", [.uint64(id), Encoding.traits(traits)])
        case .viewWillTransitionToSize(let size):
            signal(change.app, "ViewWillTransitionToSize", [
                .uint64(id), .double(size.width), .double(size.height),
                Encoding.context(change.context, window: change.after!, screen: screen),
            ])
        case .traitCollectionDidChange(let previous):
            signal(change.app, "TraitCollectionDidChange", [.uint64(id), Encoding.traits(previous)])
        case .safeAreaInsetsDidChange(let insets):
            signal(change.app, "ViewSafeAreaInsetsDidChange", [.uint64(id), Encoding.insets(insets)])
        case .updateProperties, .complete:
            break
        }
    }

    private func signal(_ app: String, _ member: String, _ arguments: [DBusValue]) {
        do {
            try server.connection.emit(
                path: Layout1.windowPath(app), interface: Layout1.windowInterface, member: member, arguments)
        } catch {
            logger.error("cannot emit \(member) for \(app): \(error)")
        }
    }
}
