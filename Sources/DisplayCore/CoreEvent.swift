import TransitionEngine

/// What the core announces, in order: the engine's events as it made them, and what changed of the core's
/// own (a window's adapters, its restoration state). The shell encodes each one once, at the edge.
public enum CoreEvent: Sendable, Equatable, CustomStringConvertible {
    /// One of the engine's events (steps, properties, objects, deadlines, completions, answers).
    case engine(EngineEvent)
    /// The adapters registered for the app's window changed; `layoutsToo` when their reports went with one.
    case adaptersChanged(String, layoutsToo: Bool)
    /// The app's restoration state changed.
    case restorationChanged(String)

    /// Whether the shell, to send this event, reads the engine's state, which the engine holds while it runs
    /// (`EngineEvent.readsTheEngine`). The core's own events come after the engine has returned.
    public var readsTheEngine: Bool {
        switch self {
        case .engine(let event): event.readsTheEngine
        case .adaptersChanged, .restorationChanged: false
        }
    }

    public var description: String {
        switch self {
        case .engine(let event): return event.description
        case .adaptersChanged(let app, let layoutsToo): return "\(app) adapters changed" + (layoutsToo ? " with layouts" : "")
        case .restorationChanged(let app): return "\(app) restoration state changed"
        }
    }
}

extension EngineEvent {
    /// Whether this event is sent only once the engine has returned: those whose sending reads the engine's
    /// state (exporting a window or a monitor reads its properties; an answered `EndResize` waits for the serial
    /// to be saved), and with them the other objects coming and going and the portal's settings, which are rare
    /// beside a transition's steps and read nothing a test has needed to see sooner.
    public var readsTheEngine: Bool {
        switch self {
        case .lifecycle, .step, .displayChanged, .windowChanged, .effectiveGeometryChanged, .deadlineStarted,
             .layoutsChanged, .completed:
            false
        case .windowOpened, .windowClosed, .displayConnected, .displayDisconnected, .displayWindowsChanged,
             .settingsChanged, .answered:
            true
        }
    }
}
