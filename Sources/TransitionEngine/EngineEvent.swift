import TraitModel
import Vocabulary

/// What the engine announces, in order, as values of the model: the shell encodes each one once, at the edge,
/// and sends it (on D-Bus: `DisplayService`). Nothing here names a wire type or a member; what changed was
/// decided once, in the model (`Plan`), and the events carry it.
public enum EngineEvent: Sendable, Equatable, CustomStringConvertible {
    /// A window appears (`InterfacesAdded`, with its geometry as it opens) or goes (`InterfacesRemoved`).
    case windowOpened(String, WindowGeometry), windowClosed(String)
    /// An app-state change of the app's window (`WillResignActive`...).
    case lifecycle(String, LifecycleEvent)
    /// One step of transition `id` of the app's window, in UIKit's order.
    case step(String, id: UInt64, WindowStep)
    /// The display's properties `changed`, with the values of the stage that changed them (its `Serial` always).
    case displayChanged(Set<DisplayProperty>, DisplayValues)
    /// The window's properties `changed`, as `window` has them now.
    case windowChanged(String, Set<WindowProperty>, WindowGeometry)
    /// The window scene's geometry changed (`DidUpdateEffectiveGeometry`), after its properties: `previous` is
    /// the one before, `id` the transition that changed it (0 for a change without one, a move).
    case effectiveGeometryChanged(String, id: UInt64, previous: EffectiveGeometry)
    /// A monitor was plugged in (before its windows are announced; `windows` on its stage, front to back) or
    /// unplugged (before the windows it had move), as UIKit posts `UIScreen.didConnectNotification` and
    /// `didDisconnectNotification`.
    case displayConnected(ConnectedDisplay, windows: [String]), displayDisconnected(String)
    /// A connected monitor's windows, front to back, changed.
    case displayWindowsChanged(String, [String])
    /// These display-wide settings changed (for the settings portal), to the values in `traits`.
    case settingsChanged([DisplayTrait], DisplayTraits)
    /// Transition `id` of the app's window waits for its adapters at most `seconds` (then `deadlinePassed`).
    case deadlineStarted(app: String, id: UInt64, seconds: Double)
    /// The reports of the app's window changed (announced once per transition, just before it completes).
    case layoutsChanged(String)
    /// The transition is over (`TransitionCompleted`); its deadline, if it had one, no longer matters.
    case completed(String, TransitionCompletion)
    /// A call that waited (`endResize`'s `caller`) is answered: the transitions it settled, or why it failed.
    case answered(caller: UInt64, Result<[UInt64], ModelError>)

    /// `mail viewWillTransitionToSize #3`, `display changed arrangement serial`: the order, for tests and logs.
    public var description: String {
        switch self {
        case .windowOpened(let app, _): return "\(app) opened"
        case .windowClosed(let app): return "\(app) closed"
        case .lifecycle(let app, let event): return "\(app) \(event)"
        case .step(let app, let id, let step): return "\(app) \(step) #\(id)"
        case .displayChanged(let changed, _):
            return "display changed " + changed.map { "\($0)" }.sorted().joined(separator: " ")
        case .windowChanged(let app, let changed, _):
            return "\(app) changed " + changed.map { "\($0)" }.sorted().joined(separator: " ")
        case .effectiveGeometryChanged(let app, let id, _): return "\(app) effective geometry #\(id)"
        case .displayConnected(let display, _): return "\(display.id) connected"
        case .displayDisconnected(let id): return "\(id) disconnected"
        case .displayWindowsChanged(let id, let windows): return "\(id) windows \(windows.joined(separator: ", "))"
        case .settingsChanged(let traits, _): return "settings changed " + traits.map(\.word).joined(separator: " ")
        case .deadlineStarted(let app, let id, let seconds): return "\(app) deadline #\(id) in \(seconds.compact) s"
        case .layoutsChanged(let app): return "\(app) layouts changed"
        case .completed(let app, let outcome): return "\(app) completed #\(outcome.id)"
        case .answered(let caller, _): return "caller \(caller) answered"
        }
    }
}

/// How one transition ended: each adapter registered when it began is in one list.
public struct TransitionCompletion: Sendable, Equatable {
    public let id: UInt64
    public let reported: [String]
    public let failed: [String]
    public let missed: [String]

    public init(id: UInt64, reported: [String], failed: [String], missed: [String]) {
        self.id = id
        self.reported = reported
        self.failed = failed
        self.missed = missed
    }
}

/// Why a report is refused (the shell names the error).
public enum ReportRefusal: Error, Sendable, Equatable {
    /// The transition is not open for the window (never begun, or completed already).
    case stale(String)
    /// The adapter reported for this transition already.
    case alreadyReported(String)

    public var message: String {
        switch self {
        case .stale(let m), .alreadyReported(let m): return m
        }
    }
}
