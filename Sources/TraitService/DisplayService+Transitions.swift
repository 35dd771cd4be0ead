import DBus
import TraitProtocol

/// The coordinator's announcements on the bus: window signals and `PropertiesChanged` through the object server,
/// new window objects with their handlers, and each transition's deadline as one of the connection's timers.
extension DisplayService {
    /// Sends `events` in order. A transition's reported layouts are announced just before its
    /// `TransitionCompleted` (once per transition rather than once per report).
    func announce(_ events: [TransitionEvent]) {
        var resizesToApply: [String] = []
        for event in events { announce(event, resizing: &resizesToApply) }
        applyWaitingResizes(resizesToApply)
    }

    /// Sends one event. A live-resize step that waited for a transition completed here is added to `resizes`,
    /// for `applyWaitingResizes` once the events in hand are sent.
    func announce(_ event: TransitionEvent, resizing resizes: inout [String]) {
        switch event {
        case .exported(let app):
            exportWindow(app)
        case .unexported(let app):
            server.unexport(Layout1.windowPath(app))
        case .signal(let app, let member, let arguments):
            emit(app, member, arguments)
        case .displayChanged(let changed):
            server.propertiesChanged(path: Layout1.rootPath, interface: Layout1.displayInterface, changed)
        case .windowChanged(let app, let changed):
            server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface, changed)
        case .deadlineStarted(let app, let id, let seconds):
            // Goes off on the connection's thread, this actor's executor.
            deadlineTimers[id] = connection.schedule(after: seconds) { [weak self] in
                self?.assumeIsolated { service in
                    service.deadlineTimers[id] = nil
                    service.announce(service.coordinator.deadlinePassed(app: app, id: id))
                }
            }
        case .completed(let app, let outcome):
            if let timer = deadlineTimers.removeValue(forKey: outcome.id) { connection.cancel(timer: timer) }
            if layoutsToAnnounce.remove(app) != nil { announceLayouts(app) }
            let completed = Layout1.Window.transitionCompleted
            emit(app, completed.name, completed.arguments((outcome.id, outcome.reported, outcome.missed, outcome.failed)))
            if waitingResize[app] != nil { resizes.append(app) }
        }
    }

    /// A live-resize step that waited for its window's transition goes now (a step of its own, announced after).
    func applyWaitingResizes(_ apps: [String]) {
        for app in apps { applyWaitingResize(app) }
    }

    private func emit(_ app: String, _ member: String, _ arguments: [DBusValue]) {
        do {
            try connection.emit(path: Layout1.windowPath(app), interface: Layout1.windowInterface, member: member, arguments)
        } catch {
            server.sendFailed("\(member) for \(app)", error)
        }
    }
}
