import Vocabulary
import DBus
import TraitProtocol

/// The display as `GetState` returns it, every value in the model's types.
///
/// Decoded strictly: a property missing from the reply, or of another type than the contract declares, throws
/// `InvalidArgs` naming it (properties the contract does not know are ignored, so a newer daemon can add some).
public struct DisplaySnapshot: Sendable, Equatable, Codable {
    /// Goes up by one with every change of the daemon's state.
    public var serial: UInt64
    /// The device profile id, such as `ipad-9.7`.
    public var device: String
    /// Which way the device is held.
    public var orientation: Orientation
    /// Width and height in points, in the current orientation.
    public var screenSize: Size
    /// The display scale (2 or 3).
    public var scale: Double
    /// The multitasking arrangement: full screen, a Split View, Slide Over or Picture in Picture.
    public var arrangement: Arrangement
    /// The divider's left edge in points; 0 when there is no split.
    public var dividerPosition: Double
    /// Whether the Split View divider is being dragged.
    public var dragging: Bool
    /// Apps the divider dismissed, oldest first.
    public var backgroundApps: [String]
    /// The open windows, primary first.
    public var windows: [WindowSnapshot]
    /// The display-wide settings (`Appearance`, `ContentSizeCategory`, ...); defaults for one an older daemon
    /// does not publish.
    public var traits: DisplayTraits
    /// Split View, Stage Manager or windowed apps (`split-view` from a daemon that does not publish it).
    public var windowing: Windowing
    /// The apps whose windows are on screen, front to back (`Stacking`; empty from a daemon without it).
    public var stacking: [String]
    /// The ids of the connected external displays (`Displays`; empty from a daemon without it).
    public var displays: [String]
    /// The software keyboard (`Keyboard`; hidden from a daemon without it).
    public var keyboard: KeyboardMode
    /// The keyboard's frame on the device's screen, in screen coordinates (`KeyboardFrame`); nil while hidden.
    public var keyboardFrame: Rect?

    /// The snapshot from `GetState`'s three values: the serial, the display's properties and the windows.
    public init(serial: UInt64, display: [String: DBusValue], windows: [ObjectProperties]) throws {
        typealias D = Layout1.Display
        self.serial = serial
        device = try D.device.read(from: display)
        orientation = try D.orientation.read(from: display)
        screenSize = try D.screenSize.read(from: display)
        scale = try D.scale.read(from: display)
        arrangement = try D.arrangement.read(from: display)
        dividerPosition = try D.dividerPosition.read(from: display)
        dragging = try D.dragging.read(from: display)
        backgroundApps = try D.backgroundApps.read(from: display)
        traits = DisplayTraits()
        for trait in DisplayTrait.all where display[trait.property] != nil {
            traits[trait] = try D.trait(trait).read(from: display)
        }
        windowing = display[D.windowing.name] == nil ? .splitView : try D.windowing.read(from: display)
        stacking = display[D.stacking.name] == nil ? [] : try D.stacking.read(from: display).compactMap(Layout1.app(path:))
        displays = display[D.displays.name] == nil ? [] : try D.displays.read(from: display)
        keyboard = display[D.keyboard.name] == nil ? .hidden : try D.keyboard.read(from: display)
        let frame = display[D.keyboardFrame.name] == nil ? Rect.zero : try D.keyboardFrame.read(from: display)
        keyboardFrame = keyboard == .hidden ? nil : frame
        self.windows = try windows.map { try WindowSnapshot(path: $0.path, properties: $0.properties) }
    }

    /// The windows on screen, back to front (the order they are drawn in): those `stacking` does not name
    /// first, in display order, then `stacking` reversed.
    public var windowsBackToFront: [WindowSnapshot] {
        let depth = Dictionary(stacking.enumerated().map { ($1, $0) }) { first, _ in first }
        return windows.filter { $0.state != .background }.enumerated().sorted { a, b in
            let (da, db) = (depth[a.element.app] ?? Int.max, depth[b.element.app] ?? Int.max)
            return da != db ? da > db : a.offset < b.offset
        }.map(\.element)
    }

    /// The window of `app`, if it is open.
    public func window(_ app: String) -> WindowSnapshot? { windows.first { $0.app == app } }
}

/// One window as `GetState` (or `InterfacesAdded`) gives it, every value in the model's types.
public struct WindowSnapshot: Sendable, Equatable, Codable {
    /// The window's object path, `/org/traitd/Layout1/window/<app>`.
    public var path: String
    /// The app's id, the last element of the path.
    public var app: String
    /// The window's place in the arrangement (primary, secondary, slide-over, ...).
    public var role: Role
    /// The frame in screen points.
    public var frame: Rect
    /// The safe area's insets from the frame's edges.
    public var safeAreaInsets: EdgeInsets
    /// Size classes, idiom and display scale.
    public var traits: TraitCollection
    /// The app's lifecycle state, as UIKit's `UIApplication.State`.
    public var state: AppState
    /// The screen it is on: `device`, or an external display's id (`device` from a daemon without `Display`).
    public var display: String
    /// Adapters registered for this window.
    public var adapters: [String]
    /// adapter -> element -> frame in window coordinates, from each adapter's latest accepted report.
    public var layouts: [String: [String: Rect]]
    /// What those reports break of the window's geometry (`LayoutProblems`; none from a daemon without it).
    public var layoutProblems: [LayoutProblem]
    /// iPadOS 26's window controls in window coordinates (`WindowControls`); nil where there are none (or from a
    /// daemon without them).
    public var windowControls: Rect?
    /// The safe area adapted to them (`CornerAdaptedInsets`; the safe area from a daemon without them).
    public var cornerAdaptedInsets: CornerAdaptedInsets
    /// The size restrictions the app declared (`SizeRestrictions`), nil without.
    public var sizeRestrictions: SizeRestrictions?
    /// The orientations the app declared it supports (`SupportedOrientations`); empty: all.
    public var supportedOrientations: [Orientation]
    /// The names of the app's breakpoints that hold now (`SetBreakpoints`).
    public var breakpoints: [String] = []
    /// adapter -> the PNG of the window's pixels its latest report names (the extra `screenshot`: the bridges'
    /// with `traitd-adapters --screenshots`), a path on the adapter's machine.
    public var screenshots: [String: String]
    /// Each adapter's accessibility snapshot as of its latest report (its extra `ariaSnapshot`: the bridges send
    /// one with `traitd-adapters --aria-snapshots`), by adapter.
    public var ariaSnapshots: [String: String]
    /// adapter -> why its latest layout failed (the extra `error` of a failed report; such a report has no
    /// frames in ``layouts``).
    public var failures: [String: String]
    /// adapter -> element -> what it is, as its latest report says (the extra `kinds`; an element it does not
    /// name is content).
    public var kinds: [String: [String: ElementKind]] = [:]

    /// The adapters whose latest report is in: its frames in ``layouts``, or its failure in ``failures``.
    public var reportedAdapters: Set<String> { Set(layouts.keys).union(failures.keys) }

    /// The window from its object path and its `org.traitd.Layout1.Window` properties; strict as
    /// ``DisplaySnapshot`` is.
    public init(path: String, properties p: [String: DBusValue]) throws {
        typealias W = Layout1.Window
        self.path = path
        app = try W.app.read(from: p)
        role = try W.role.read(from: p)
        frame = try W.frame.read(from: p)
        safeAreaInsets = try W.safeAreaInsets.read(from: p)
        traits = try W.traits.read(from: p)
        state = try W.state.read(from: p)
        display = p[W.display.name] == nil ? "device" : try W.display.read(from: p)
        adapters = try W.adapters.read(from: p)
        layouts = try W.layouts.read(from: p)
        layoutProblems = p[W.layoutProblems.name] == nil ? [] : try W.layoutProblems.read(from: p)
        let controls = p[W.windowControls.name] == nil ? Rect.zero : try W.windowControls.read(from: p)
        windowControls = controls == .zero ? nil : controls
        let corner = p[W.cornerAdaptedInsets.name] == nil ? [:] : try W.cornerAdaptedInsets.read(from: p)
        cornerAdaptedInsets = CornerAdaptedInsets(horizontal: corner["horizontal"] ?? safeAreaInsets, vertical: corner["vertical"] ?? safeAreaInsets)
        let restrictions = p[W.sizeRestrictions.name] == nil ? nil : try W.sizeRestrictions.read(from: p)
        sizeRestrictions = restrictions?.maximum == Size(width: 0, height: 0) ? nil : restrictions
        supportedOrientations = p[W.supportedOrientations.name] == nil ? [] : try W.supportedOrientations.read(from: p)
        breakpoints = p[W.breakpoints.name] == nil ? [] : try W.breakpoints.read(from: p)
        let extras = p[W.layoutExtras.name] == nil ? [:] : try W.layoutExtras.read(from: p)
        screenshots = extras.compactMapValues { $0[W.Extras.screenshot]?.string }
        ariaSnapshots = extras.compactMapValues { $0[W.Extras.ariaSnapshot]?.string }
        failures = extras.compactMapValues { $0[W.Extras.error]?.string }
        kinds = extras.compactMapValues { $0[W.Extras.kinds].flatMap { try? W.Extras.kindsParameter.decode($0.unwrapped) } }
    }

    /// The horizontal size class, from ``traits``.
    public var horizontalSizeClass: SizeClass { traits.horizontalSizeClass }
    /// The vertical size class, from ``traits``.
    public var verticalSizeClass: SizeClass { traits.verticalSizeClass }
    /// The user interface idiom, from ``traits``.
    public var idiom: Idiom { traits.idiom }
    /// The display scale, from ``traits``.
    public var displayScale: Double { traits.displayScale }
}
