import BusValues
import TransitionEngine

/// What the core announces, in order: the engine's events as it made them, and what changed of the core's
/// own (a window's reports, its adapters, its restoration state). The shell encodes each one once, at the edge,
/// and sends it at once: each event carries what its sending needs (a window's geometry when it opens, a
/// monitor's windows when it is plugged in, the reports when they change), so the shell reads nothing of the
/// core to send it and nothing waits for the engine to return.
public enum CoreEvent: Sendable, Equatable, CustomStringConvertible {
    /// One of the engine's events (steps, properties, objects, deadlines, completions), but its layouts'.
    case engine(EngineEvent)
    /// The reports of the app's window changed (once per transition, just before it completes): every
    /// adapter's latest.
    case layoutsChanged(String, [String: LayoutReport])
    /// The adapters registered for the app's window changed, now `adapters`; `reports` when their reports
    /// changed with them (an adapter left: its frames went).
    case adaptersChanged(String, adapters: [String], reports: [String: LayoutReport]?)
    /// The app's restoration state changed, now `state`.
    case restorationChanged(String, [String: DBusValue])

    public var description: String {
        switch self {
        case .engine(let event): return event.description
        case .layoutsChanged(let app, _): return "\(app) layouts changed"
        case .adaptersChanged(let app, _, let reports): return "\(app) adapters changed" + (reports != nil ? " with layouts" : "")
        case .restorationChanged(let app, _): return "\(app) restoration state changed"
        }
    }
}
