import DBus
import DisplayCore
import TraitProtocol
import TraitModel
import Vocabulary

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
            safeAreaInsets: window.safeArea, snapshot: c.reason == .snapshot, screenSize: screen, traits: c.traits,
            interactivelyResizing: window.interactivelyResizing)
    }

    /// A window's geometry properties (and its `App`), or only those in `only`.
    static func windowProperties(
        app: String, _ w: WindowGeometry, only: Set<WindowProperty>? = nil
    ) -> [PropertyValue] {
        var entries = only == nil ? [Window.app.entry(app)] : []
        for property in WindowProperty.allCases where only?.contains(property) ?? true {
            entries.append(entry(property, of: w))
        }
        return entries
    }

    /// The one place a window property's model value meets its declaration on the bus.
    private static func entry(_ property: WindowProperty, of w: WindowGeometry) -> PropertyValue {
        switch property {
        case .role: return Window.role.entry(w.role)
        case .frame: return Window.frame.entry(w.frame)
        case .horizontalSizeClass: return Window.horizontalSizeClass.entry(w.traits.horizontalSizeClass)
        case .verticalSizeClass: return Window.verticalSizeClass.entry(w.traits.verticalSizeClass)
        case .traits: return Window.traits.entry(w.traits)
        case .state: return Window.state.entry(w.state)
        case .safeArea: return Window.safeAreaInsets.entry(w.safeArea)
        case .display: return Window.display.entry(w.display)
        case .interactivelyResizing: return Window.interactivelyResizing.entry(w.interactivelyResizing)
        case .windowControls: return Window.windowControls.entry(w.windowControls ?? .zero)
        case .sizeRestrictions:
            return Window.sizeRestrictions.entry(w.declarations.sizeRestrictions ?? SizeRestrictions(minimum: Size(width: 0, height: 0), maximum: Size(width: 0, height: 0)))
        case .supportedOrientations: return Window.supportedOrientations.entry(w.declarations.supportedOrientations)
        case .breakpoints: return Window.breakpoints.entry(w.appliedBreakpoints)
        case .cornerAdaptedInsets:
            return Window.cornerAdaptedInsets.entry(["horizontal": w.cornerAdaptedInsets.horizontal, "vertical": w.cornerAdaptedInsets.vertical])
        }
    }

    /// `Layouts`: adapter -> element -> frame, as `a{sa{s(dddd)}}`, sorted.
    static func layouts(_ frames: [String: [String: Rect]]) -> DBusValue { Window.layouts.value.encode(frames) }

    /// `layouts(["": frames]).wireSize` (what a report adds to `Layouts`, measured at every report), worked out
    /// without building the value: an adapter's map with no element, measured once through the encoder above,
    /// then each element's dict entry, 8-aligned: its name (length, characters, NUL), padding to 8, four
    /// doubles. `ServicePartsTests` holds the two equal.
    static func layoutsBytes(ofOneAdapter frames: [String: Rect]) -> Int {
        frames.keys.reduce(emptyAdapterLayoutsBytes) { total, name in total + ((4 + name.utf8.count + 1 + 7) & ~7) + 32 }
    }

    private static let emptyAdapterLayoutsBytes = layouts(["": [:]]).wireSize

    /// The display's properties as `display` (the simulation now, or one stage of a command) has them; all of
    /// them, or only those in `only`.
    static func displayProperties(_ display: DisplayValues, only: Set<DisplayProperty>? = nil) -> [PropertyValue] {
        // The few that changed, without hashing every property to ask whether it is one of them.
        (only.map(Array.init) ?? DisplayProperty.allCases).map { displayProperty($0, display) }
    }

    /// One display property's name and value as `display` has it (`Properties.Get` encodes only the one asked for).
    static func displayProperty(_ property: DisplayProperty, _ display: DisplayValues) -> PropertyValue {
        switch property {
        case .device: return Display.device.entry(display.state.device)
        case .orientation: return Display.orientation.entry(display.state.orientation)
        case .screenSize: return Display.screenSize.entry(display.screen)
        case .scale: return Display.scale.entry(display.scale)
        case .arrangement: return Display.arrangement.entry(display.state.arrangement)
        case .windows: return Display.windows.entry(display.apps.map(Layout1.windowPath))
        case .divider: return Display.dividerPosition.entry(display.dividerPosition)
        case .dragging: return Display.dragging.entry(display.dragging)
        case .background: return Display.backgroundApps.entry(display.backgroundApps)
        case .serial: return Display.serial.entry(display.serial)
        case .trait(let trait): return Display.trait(trait).entry(display.traits[trait])
        case .windowing: return Display.windowing.entry(display.state.windowing)
        case .stacking: return Display.stacking.entry(display.stacking.map(Layout1.windowPath))
        case .displays: return Display.displays.entry(display.displays.map(\.id))
        case .keyboard: return Display.keyboard.entry(display.keyboard)
        case .keyboardFrame: return Display.keyboardFrame.entry(display.keyboardFrame ?? .zero)
        }
    }
}

extension Refusal {
    /// The D-Bus error a refusal of the core becomes: its kind named as the contract names it.
    var dbusError: DBusError {
        switch kind {
        case .model(let error): return error.dbusError
        case .invalidArgs: return .invalidArgs(message)
        case .accessDenied: return DBusError(DBusError.accessDeniedName, message)
        case .noSuchApp: return DBusError(Layout1.Error.noSuchApp, message)
        case .noSuchAdapter: return DBusError(Layout1.Error.noSuchAdapter, message)
        case .adapterExists: return DBusError(Layout1.Error.adapterExists, message)
        case .limitExceeded: return DBusError(Layout1.Error.limitExceeded, message)
        case .staleTransition: return DBusError(Layout1.Error.staleTransition, message)
        case .alreadyReported: return DBusError(Layout1.Error.alreadyReported, message)
        }
    }
}

/// Runs a read of the core that may refuse, its refusal as the D-Bus error it becomes.
func refused<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let refusal as Refusal {
        throw refusal.dbusError
    }
}

extension ModelError {
    /// The D-Bus error a refusal becomes.
    var dbusError: DBusError {
        switch self {
        case .invalidArgument(let m): return .invalidArgs(m)
        case .invalidState: return .invalidArgs(message)
        case .notOffered(let m): return DBusError(Layout1.Error.notOffered, m)
        case .noSuchApp(let m): return DBusError(Layout1.Error.noSuchApp, m)
        case .appExists(let m): return DBusError(Layout1.Error.appExists, m)
        case .roleTaken(let m): return DBusError(Layout1.Error.roleTaken, m)
        case .missingApp(let m): return DBusError(Layout1.Error.missingApp, m)
        case .notDragging(let m): return DBusError(Layout1.Error.notDragging, m)
        case .dragging(let m): return DBusError(Layout1.Error.dragging, m)
        case .noDivider(let m): return DBusError(Layout1.Error.noDivider, m)
        case .outOfRange(let m): return DBusError(Layout1.Error.outOfRange, m)
        case .geometryRequestUnsupported(let m): return DBusError(Layout1.Error.geometryRequestUnsupported, m)
        case .geometryRequestDenied(let m): return DBusError(Layout1.Error.geometryRequestDenied, m)
        }
    }
}
