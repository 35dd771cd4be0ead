import Vocabulary

/// Something that changes the simulated display. `Simulation.apply` turns one into a `Plan`.
public enum Command: Sendable, Equatable {
    case setDevice(String)
    case rotate(Orientation)
    case setArrangement(Arrangement)
    /// Opens an app in a role: `primary`, `secondary` (a split beside the primary), `slide-over` or `pip`.
    case openApp(String, Role)
    case closeApp(String)
    /// The user touches the Split View divider: both apps resign active until the drag ends.
    case beginDividerDrag
    /// The divider's left edge moves to `x` points from the left of the screen.
    case moveDivider(Double)
    /// The user lets go: the divider snaps to the nearest split, or past the edge dismisses an app.
    case endDividerDrag
    /// Changes display-wide settings (`DisplayTrait`): all of them or none.
    case setTraits([DisplayTrait: String])

    /// The reason a transition this command causes carries in its context.
    public var reason: TransitionReason {
        switch self {
        case .setDevice: return .device
        case .rotate: return .rotation
        case .setArrangement, .openApp, .closeApp: return .arrangement
        case .beginDividerDrag, .endDividerDrag: return .drag
        case .moveDivider: return .snapshot
        case .setTraits: return .traits
        }
    }
}
