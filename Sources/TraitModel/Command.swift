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
    /// Split View, Stage Manager or windowed apps: the open apps are rearranged in one transition.
    case setWindowing(Windowing)
    /// Moves and sizes a free-form window.
    case setFrame(app: String, Rect)
    /// Puts a free-form window in a half or a quarter of the screen, or makes it fill it.
    case tile(app: String, TilePosition)
    /// Brings a free-form window to the front: it becomes the key window.
    case raise(app: String)
    /// The user takes a free-form window's corner: it becomes inactive until the resize ends.
    case beginResize(app: String)
    /// One step of a live resize: the window's size, its top-left corner staying.
    case resizeTo(app: String, Size)
    /// The user lets go of the corner: the window keeps its size and becomes active.
    case endResize(app: String)
    /// A monitor is plugged in (`ExternalScreen.profiles` names them).
    case connectDisplay(profile: String)
    /// A monitor is unplugged: its windows come back to the device's screen.
    case disconnectDisplay(id: String)
    /// A free-form window moves to another screen (`ConnectedDisplay.device` or an external display's id).
    case moveToDisplay(app: String, display: String)
    /// The whole display set back to `state` (a test's `Reset` or `RestoreSnapshot`), in one stage.
    case restore(DisplayState)
    /// Shows, hides or moves the software keyboard.
    case setKeyboard(KeyboardMode)
    /// An app declares its window's smallest and largest size.
    case setSizeRestrictions(app: String, SizeRestrictions)
    /// An app declares the orientations it supports (none: all).
    case setSupportedOrientations(app: String, [Orientation])
    /// An app asks for orientations, or a free-form window's size and origin.
    case requestGeometryUpdate(app: String, GeometryRequest)
    /// An app declares its breakpoints (libadwaita's conditions, by name), in place of those it had.
    case setBreakpoints(app: String, [String: BreakpointCondition])
    /// An app overrides traits of its window and names custom traits, in place of the overrides it had.
    case setTraitOverrides(app: String, TraitOverrideRequest)

    /// The reason a transition this command causes carries in its context.
    public var reason: TransitionReason {
        switch self {
        case .setDevice: return .device
        case .rotate: return .rotation
        case .setArrangement, .openApp, .closeApp: return .arrangement
        case .beginDividerDrag, .endDividerDrag: return .drag
        case .moveDivider: return .snapshot
        case .setTraits, .setTraitOverrides: return .traits
        case .setWindowing: return .windowing
        case .setFrame, .tile, .raise, .beginResize, .resizeTo, .endResize: return .resize
        case .connectDisplay, .disconnectDisplay, .moveToDisplay: return .display
        case .restore: return .reset
        case .setKeyboard: return .keyboard
        case .setSizeRestrictions, .requestGeometryUpdate, .setBreakpoints: return .resize
        case .setSupportedOrientations: return .rotation
        }
    }
}
