import DBus
import DisplayCore
import TraitModel
import TraitProtocol
import TransitionEngine
import Vocabulary

/// The core's events on the bus, each encoded once, here: window signals, `PropertiesChanged`, window and
/// display objects coming and going, the portal's `SettingChanged`, each transition's deadline as one of the
/// clock's timers, and the answers to calls that waited.
///
/// Called as the core makes each event (`DisplayService.handle`): what a signal, a property or an object's
/// `InterfacesAdded` says comes with its event, so nothing here reads the engine while it runs.
extension DisplayService {
    /// One of the core's events, on the bus.
    func announce(_ event: CoreEvent) {
        switch event {
        case .engine(let event):
            announce(event)
        case .layoutsChanged(let app, let reports):
            server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface, layoutProperties(reports))
        case .adaptersChanged(let app, let adapters, let reports):
            let changed = [Layout1.Window.adapters.entry(adapters)] + (reports.map(layoutProperties) ?? [])
            server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface, changed)
        case .restorationChanged(let app, let state):
            server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface,
                                     [Layout1.Window.restorationState.entry(state)])
        }
    }

    private func announce(_ event: EngineEvent) {
        typealias Window = Layout1.Window
        switch event {
        case .windowOpened(let app, let window):
            exportWindow(app, opening: window)
        case .windowClosed(let app):
            server.unexport(Layout1.windowPath(app))
        case .lifecycle(let app, let lifecycle):
            emit(app, Self.signal(lifecycle), ())
        case .step(let app, let id, let step):
            announce(step, of: app, id: id)
        case .displayChanged(let changed, let display):
            server.propertiesChanged(path: Layout1.rootPath, interface: Layout1.displayInterface,
                                     Encoding.displayProperties(display, only: changed))
        case .windowChanged(let app, let changed, let window):
            server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface,
                                     Encoding.windowProperties(app: app, window, only: changed))
        case .effectiveGeometryChanged(let app, let id, let previous):
            emit(app, Layout1.Window.didUpdateEffectiveGeometry, (id, previous))
        case .displayConnected(let display, let windows):
            exportExternalDisplay(display, windows: windows)
            emitDisplaySignal(Layout1.Display.displayConnected, display.id)
        case .displayDisconnected(let id):
            emitDisplaySignal(Layout1.Display.displayDisconnected, id)
            server.unexport(Layout1.externalDisplayPath(id))
        case .displayWindowsChanged(let id, let windows):
            let property = Layout1.ExternalDisplay.windows
            server.propertiesChanged(path: Layout1.externalDisplayPath(id), interface: Layout1.externalDisplayInterface,
                                     [property.name: property.value.encode(windows.map(Layout1.windowPath))])
        case .settingsChanged(let changed, let traits):
            announcePortalChanges(changed, traits)
        case .deadlineStarted(let app, let id, let seconds):
            // Goes off on the connection's thread, this actor's executor (the real clock's timer, or within
            // `AdvanceClock` on the virtual clock).
            clock.startDeadline(of: id, after: seconds) { [weak self] in
                self?.assumeIsolated { service in
                    _ = try? service.handle(.deadlinePassed(app: app, id: id), member: "deadline", from: "the clock")
                }
            }
        case .layoutsChanged:
            break  // the core gives them with the reports: `CoreEvent.layoutsChanged`
        case .completed(let app, let outcome):
            clock.endDeadline(of: outcome.id)
            emit(app, Window.transitionCompleted, (outcome.id, outcome.reported, outcome.missed, outcome.failed))
        case .answered:
            break  // the core gives them in its outcome: `answered(_:)`, once the state is saved
        }
    }

    /// A call that waited (`EndResize`) answered: the transitions it settled, once the state is on disk, or why
    /// it failed.
    func answered(_ answer: DisplayCore.Answer) {
        guard let reply = waitingCalls.take(answer.caller) else { return }
        switch answer.result {
        case .success(let ids): replyWhenSaved(reply, Layout1.Window.endResize.outputValues(ids))
        case .failure(let refusal): reply.send(.failure(refusal.dbusError))
        }
    }

    /// One step of transition `id` of `app`'s window, as its signal.
    private func announce(_ step: WindowStep, of app: String, id: UInt64) {
        typealias Window = Layout1.Window
        switch step {
        case .willTransitionToTraits(let traits):
            emit(app, Window.willTransitionToTraitCollection, (id, traits))
        case .viewWillTransitionToSize(let size, let context, let window, let screen):
            emit(app, Window.viewWillTransitionToSize,
                 (id, size.width, size.height, Encoding.context(context, window: window, screen: screen)))
        case .traitCollectionDidChange(let previous):
            emit(app, Window.traitCollectionDidChange, (id, previous))
        case .traitDidChange(let field, let traits, let previous):
            let (key, value) = field.entry(in: traits)
            emit(app, Window.traitDidChange, (id, key, .variant(value), .variant(field.entry(in: previous).value)))
        case .contentSizeCategoryDidChange(let category):
            emit(app, Window.contentSizeCategoryDidChange, (id, category))
        case .safeAreaInsetsDidChange(let insets):
            emit(app, Window.viewSafeAreaInsetsDidChange, (id, insets))
        case .breakpointUnapplied(let name):
            emit(app, Window.breakpointUnapplied, (id, name))
        case .breakpointApplied(let name):
            emit(app, Window.breakpointApplied, (id, name))
        case .viewWillLayoutSubviews:
            emit(app, Window.viewWillLayoutSubviews, id)
        case .keyboard(let n):
            emit(app, Window.keyboardNotices[n.kind]!, (id, n.begin, n.end, n.duration, n.curve, n.local))
        }
    }

    /// The signal of an app-state change.
    private static func signal(_ event: LifecycleEvent) -> SignalDeclaration<Void> {
        switch event {
        case .willResignActive: return Layout1.Window.willResignActive
        case .didBecomeActive: return Layout1.Window.didBecomeActive
        case .didEnterBackground: return Layout1.Window.didEnterBackground
        case .willEnterForeground: return Layout1.Window.willEnterForeground
        }
    }

    /// A signal of `app`'s window, its arguments typed by its declaration.
    private func emit<Arguments>(_ app: String, _ signal: SignalDeclaration<Arguments>, _ arguments: Arguments) {
        do {
            try connection.emit(path: Layout1.windowPath(app), interface: Layout1.windowInterface, signal, arguments)
        } catch {
            server.sendFailed("\(signal.name) for \(app)", error)
        }
    }
}
