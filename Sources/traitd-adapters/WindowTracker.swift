import Adapters
import DBus
import Layout
import TraitClient

/// What the host knows of one window, kept up to date from the daemon's signals, and when to lay it out.
///
/// A transition's signals come in UIKit's order (`WillTransitionToTraitCollection`, `ViewWillTransitionToSize`,
/// `TraitCollectionDidChange`, `ViewSafeAreaInsetsDidChange`), each present only when its part changes. The
/// layout is computed once per transition, when the last of them has arrived: at `ViewSafeAreaInsetsDidChange`
/// when the size signal's context announced new insets, else at `TraitCollectionDidChange` when the traits
/// change, else at `ViewWillTransitionToSize`, else (a change of the safe area alone) at
/// `ViewSafeAreaInsetsDidChange`.
struct WindowTracker {
    var width: Double
    var height: Double
    var horizontal: LayoutTraits.SizeClass
    var vertical: LayoutTraits.SizeClass
    var orientation: LayoutTraits.Orientation
    var screenWidth: Double
    var screenHeight: Double
    var idiom: LayoutEnvironment.Idiom
    var safeArea: LayoutInsets
    /// The transition whose `WillTransitionToTraitCollection` came, waiting for its `TraitCollectionDidChange`.
    private var waitingForTraits: UInt64?
    /// The transition whose size signal announced new insets, waiting for its `ViewSafeAreaInsetsDidChange`.
    private var waitingForSafeArea: UInt64?
    /// The last transition laid out: a later signal of it lays out nothing more (one report per transition).
    private var laidOut: UInt64?

    /// From a window's properties (`InterfacesAdded`) and the display's orientation and screen.
    init?(properties: [String: DBusValue], display: DisplayFacts) {
        guard let frame = properties["Frame"]?.unwrapped.doubles,
              let h = properties["HorizontalSizeClass"]?.unwrapped.string,
              let v = properties["VerticalSizeClass"]?.unwrapped.string else { return nil }
        let idiom = properties["Traits"]?.unwrapped.dictionary?["idiom"]?.unwrapped.string ?? "pad"
        self.init(frame: frame, horizontal: h, vertical: v, idiom: idiom,
                  safeArea: properties["SafeAreaInsets"]?.unwrapped.doubles ?? [], display: display)
    }

    /// From `GetState`'s window.
    init?(window: WindowSnapshot, display: DisplayFacts) {
        self.init(frame: window.frame, horizontal: window.horizontalSizeClass, vertical: window.verticalSizeClass,
                  idiom: window.idiom, safeArea: window.safeAreaInsets, display: display)
    }

    init?(frame: [Double], horizontal: String, vertical: String, idiom: String, safeArea: [Double], display: DisplayFacts) {
        guard frame.count == 4, let h = LayoutTraits.SizeClass(rawValue: horizontal),
              let v = LayoutTraits.SizeClass(rawValue: vertical) else { return nil }
        (width, height, self.horizontal, self.vertical) = (frame[2], frame[3], h, v)
        (orientation, screenWidth, screenHeight) = (display.orientation, display.screenWidth, display.screenHeight)
        self.idiom = LayoutEnvironment.Idiom(rawValue: idiom) ?? .pad
        self.safeArea = Self.insets(safeArea) ?? .zero
    }

    /// The context an adapter lays out in.
    var context: WindowContext {
        WindowContext(width: width, height: height,
                      traits: LayoutTraits(horizontal: horizontal, vertical: vertical, orientation: orientation),
                      screenWidth: screenWidth, screenHeight: screenHeight, idiom: idiom, safeArea: safeArea)
    }

    /// `(dddd)` top, left, bottom, right.
    static func insets(_ values: [Double]) -> LayoutInsets? {
        values.count == 4 ? LayoutInsets(top: values[0], left: values[1], bottom: values[2], right: values[3]) : nil
    }

    /// Takes in one of the window's transition signals; returns the transition id to lay out now, if this signal
    /// was the transition's last.
    mutating func handle(_ member: String, _ arguments: [DBusValue]) -> UInt64? {
        guard let id = arguments.first?.uint64 else { return nil }
        let ready = readiness(member, arguments, id)
        guard let ready, ready != laidOut else { return nil }
        laidOut = ready
        return ready
    }

    private mutating func readiness(_ member: String, _ arguments: [DBusValue], _ id: UInt64) -> UInt64? {
        switch member {
        case "WillTransitionToTraitCollection":
            if arguments.count > 1, let traits = arguments[1].dictionary { apply(traits) }
            waitingForTraits = id
            return nil
        case "ViewWillTransitionToSize":
            guard arguments.count == 4, let w = arguments[1].double, let h = arguments[2].double else { return nil }
            (width, height) = (w, h)
            let context = arguments[3].dictionary ?? [:]
            if let o = context["orientation"]?.unwrapped.string { orientation = Self.orientation(o) }
            if let screen = context["screenSize"]?.unwrapped.elements?.compactMap(\.double), screen.count == 2 {
                (screenWidth, screenHeight) = (screen[0], screen[1])
            }
            if let insets = (context["safeAreaInsets"]?.unwrapped.doubles).flatMap(Self.insets), insets != safeArea {
                safeArea = insets
                waitingForSafeArea = id
            }
            return waitingForTraits == id || waitingForSafeArea == id ? nil : id
        case "TraitCollectionDidChange":
            waitingForTraits = nil
            return waitingForSafeArea == id ? nil : id
        case "ViewSafeAreaInsetsDidChange":
            // Without a size signal (the insets alone changed) this is the transition's first news of them.
            // A traits-only transition whose insets also change lays out at TraitCollectionDidChange with the
            // old insets: no built-in profile has one (it takes two screens of one size with different insets).
            if arguments.count > 1, let insets = (arguments[1].unwrapped.doubles).flatMap(Self.insets) { safeArea = insets }
            waitingForSafeArea = nil
            return id
        default:
            return nil
        }
    }

    private mutating func apply(_ traits: [String: DBusValue]) {
        if let h = traits["horizontalSizeClass"]?.unwrapped.string.flatMap(LayoutTraits.SizeClass.init) { horizontal = h }
        if let v = traits["verticalSizeClass"]?.unwrapped.string.flatMap(LayoutTraits.SizeClass.init) { vertical = v }
    }

    /// `landscape-left` and `landscape-right` are landscape; the two portraits are portrait.
    static func orientation(_ name: String) -> LayoutTraits.Orientation { name.hasPrefix("landscape") ? .landscape : .portrait }
}

/// The display's facts every window's layout may need, from `GetState` and the display's `PropertiesChanged`.
struct DisplayFacts {
    var orientation: LayoutTraits.Orientation = .landscape
    var screenWidth = 0.0
    var screenHeight = 0.0

    mutating func update(_ snapshot: DisplaySnapshot) {
        orientation = WindowTracker.orientation(snapshot.orientation)
        if snapshot.screenSize.count == 2 { (screenWidth, screenHeight) = (snapshot.screenSize[0], snapshot.screenSize[1]) }
    }

    mutating func update(_ properties: [String: DBusValue]) {
        if let o = properties["Orientation"]?.unwrapped.string { orientation = WindowTracker.orientation(o) }
        if let s = properties["ScreenSize"]?.unwrapped.elements?.compactMap(\.double), s.count == 2 {
            (screenWidth, screenHeight) = (s[0], s[1])
        }
    }
}
