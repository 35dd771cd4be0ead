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
///   4. the steps after it (`TraitCollectionDidChange`), then `DidBecomeActive`, then closed windows go
///      (`InterfacesRemoved`);
///   5. completion: a transition completes when every adapter registered for the window has reported or the
///      deadline passes. Adapters arrive with the adapter protocol; until then the set is empty and each
///      transition completes at once with empty lists.
///
/// Runs on the connection's thread, like everything in the service.
final class TransitionCoordinator {
    private let server: ObjectServer
    private let logger: Logger
    /// Ids increase and are never reused within a run.
    private var nextID: UInt64 = 1
    /// The transition still open for each window (app name -> id); at most one per window.
    private(set) var open: [String: UInt64] = [:]

    init(server: ObjectServer, logger: Logger) {
        self.server = server
        self.logger = logger
    }

    /// Emits `plan`. `export` publishes a newly opened window's object; `windowProperties` gives a window's
    /// current property values.
    func run(
        _ plan: Plan, displayProperties: [String: DBusValue], windowProperties: (String) -> [String: DBusValue],
        export: (String) -> Void
    ) {
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
            for step in change.steps.prefix(while: { $0 != .updateProperties }) { emit(step, change, id) }
        }
        // 3. The new values.
        let names = Encoding.displayPropertyNames(plan.displayChanges)
        server.propertiesChanged(
            path: Layout1.rootPath, interface: Layout1.displayInterface,
            displayProperties.filter { names.contains($0.key) })
        for change in plan.windows where change.before != nil && change.after != nil {
            let now = windowProperties(change.app)
            let old = Encoding.windowProperties(app: change.app, change.before!)
            server.propertiesChanged(
                path: Layout1.windowPath(change.app), interface: Layout1.windowInterface,
                now.filter { old[$0.key] != $0.value })
        }
        // 4. The "did" half, apps returning become active, closed windows go.
        for change in plan.transitions {
            for step in change.steps.drop(while: { $0 != .updateProperties }).dropFirst() where step != .complete {
                emit(step, change, ids[change.app]!)
            }
        }
        for change in plan.windows where change.lifecycle.contains(.didBecomeActive) {
            signal(change.app, LifecycleEvent.didBecomeActive.rawValue, [])
        }
        for app in plan.closed {
            if let id = open[app] { complete(app, id) }
            server.unexport(Layout1.windowPath(app))
        }
        // 5. Completion (no adapters yet: at once).
        for change in plan.transitions { complete(change.app, ids[change.app]!) }
    }

    /// Opens a transition for `app`, first completing one still open for it: the final state always reflects
    /// the last command, and nothing queues.
    private func begin(_ app: String) -> UInt64 {
        if let previous = open[app] { complete(app, previous) }
        let id = nextID
        nextID += 1
        open[app] = id
        return id
    }

    private func complete(_ app: String, _ id: UInt64) {
        guard open[app] == id else { return }  // exactly once
        open[app] = nil
        signal(app, "TransitionCompleted", [.uint64(id), .strings([]), .strings([]), .strings([])])
        logger.debug("transition \(id) of \(app) completed")
    }

    private func emit(_ step: TransitionStep, _ change: WindowChange, _ id: UInt64) {
        switch step {
        case .willTransitionToTraits(let traits):
            signal(change.app, "WillTransitionToTraitCollection", [.uint64(id), Encoding.traits(traits)])
        case .viewWillTransitionToSize(let size):
            signal(change.app, "ViewWillTransitionToSize", [
                .uint64(id), .double(size.width), .double(size.height),
                Encoding.context(change.context, frame: change.after!.frame),
            ])
        case .traitCollectionDidChange(let previous):
            signal(change.app, "TraitCollectionDidChange", [.uint64(id), Encoding.traits(previous)])
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
