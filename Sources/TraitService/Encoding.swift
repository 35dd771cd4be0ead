import DBus
import TraitProtocol
import TraitModel

/// How model values look on the bus: the model's values put through the contract's declarations
/// (`Layout1.Display`, `Layout1.Window`), which a client decodes with the same parameters.
enum Encoding {
    private typealias Display = Layout1.Display
    private typealias Window = Layout1.Window

    /// `ViewWillTransitionToSize`'s context; `screen` is the screen in the new orientation, sent with the
    /// "will" half of a transition (it arrives before the display's PropertiesChanged).
    static func context(_ c: TransitionContext, window: WindowGeometry, screen: Size?) -> SizeTransitionContext {
        SizeTransitionContext(
            duration: c.duration, reason: c.reason, orientation: c.orientation, frame: window.frame,
            safeAreaInsets: window.safeArea, snapshot: c.reason == .snapshot, screenSize: screen)
    }

    static func windowProperties(app: String, _ w: WindowGeometry) -> [String: DBusValue] {
        Dictionary(uniqueKeysWithValues: [
            Window.app.entry(app), Window.role.entry(w.role), Window.frame.entry(w.frame),
            Window.horizontalSizeClass.entry(w.traits.horizontalSizeClass),
            Window.verticalSizeClass.entry(w.traits.verticalSizeClass), Window.traits.entry(w.traits),
            Window.state.entry(w.state), Window.safeAreaInsets.entry(w.safeArea),
        ])
    }

    /// `Layouts`: adapter -> element -> frame, as `a{sa{s(dddd)}}`, sorted.
    static func layouts(_ frames: [String: [String: Rect]]) -> DBusValue { Window.layouts.value.encode(frames) }

    /// `LayoutExtras`: adapter -> extras, as `a{sa{sv}}`, sorted.
    static func layoutExtras(_ extras: [String: [String: DBusValue]]) -> DBusValue {
        Window.layoutExtras.value.encode(extras)
    }

    /// The display's properties as `display` (the simulation now, or one stage of a command) has them.
    static func displayProperties(_ display: DisplayValues) -> [String: DBusValue] {
        Dictionary(uniqueKeysWithValues: [
            Display.device.entry(display.state.device), Display.orientation.entry(display.state.orientation),
            Display.screenSize.entry(display.screen), Display.scale.entry(display.scale),
            Display.arrangement.entry(display.state.arrangement), Display.windows.entry(display.apps.map(Layout1.windowPath)),
            Display.serial.entry(display.serial), Display.dividerPosition.entry(display.dividerPosition),
            Display.dragging.entry(display.dragging), Display.backgroundApps.entry(display.backgroundApps),
        ])
    }

    /// The property names that a change of these display properties touches.
    static func displayPropertyNames(_ changes: Set<DisplayProperty>) -> [String] {
        changes.flatMap { change -> [String] in
            switch change {
            case .device: return ["Device"]
            case .orientation: return ["Orientation"]
            case .screenSize: return ["ScreenSize"]
            case .scale: return ["Scale"]
            case .arrangement: return ["Arrangement"]
            case .windows: return ["Windows"]
            case .background: return ["BackgroundApps"]
            case .divider: return ["DividerPosition"]
            case .dragging: return ["Dragging"]
            }
        } + ["Serial"]
    }
}

extension ModelError {
    /// The D-Bus error a refusal becomes.
    var dbusError: DBusError {
        switch self {
        case .invalidArgument(let m): return .invalidArgs(m)
        case .notOffered(let m): return DBusError(Layout1.Error.notOffered, m)
        case .noSuchApp(let m): return DBusError(Layout1.Error.noSuchApp, m)
        case .appExists(let m): return DBusError(Layout1.Error.appExists, m)
        case .roleTaken(let m): return DBusError(Layout1.Error.roleTaken, m)
        case .missingApp(let m): return DBusError(Layout1.Error.missingApp, m)
        case .notDragging(let m): return DBusError(Layout1.Error.notDragging, m)
        case .dragging(let m): return DBusError(Layout1.Error.dragging, m)
        case .noDivider(let m): return DBusError(Layout1.Error.noDivider, m)
        }
    }
}
