import TransitionEngine

/// What the core announces, in order: the engine's events as it made them, and what changed of the core's
/// own (a window's adapters, its restoration state). The shell encodes each one once, at the edge, and sends
/// it at once: each event carries what its sending needs from the engine (a window's geometry when it opens, a
/// monitor's windows when it is plugged in), so nothing waits for the engine to return.
public enum CoreEvent: Sendable, Equatable, CustomStringConvertible {
    /// One of the engine's events (steps, properties, objects, deadlines, completions, answers).
    case engine(EngineEvent)
    /// The adapters registered for the app's window changed; `layoutsToo` when their reports went with one.
    case adaptersChanged(String, layoutsToo: Bool)
    /// The app's restoration state changed.
    case restorationChanged(String)

    public var description: String {
        switch self {
        case .engine(let event): return event.description
        case .adaptersChanged(let app, let layoutsToo): return "\(app) adapters changed" + (layoutsToo ? " with layouts" : "")
        case .restorationChanged(let app): return "\(app) restoration state changed"
        }
    }
}
