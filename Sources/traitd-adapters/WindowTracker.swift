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

    /// From a window as `GetState` or `InterfacesAdded` gives it, and the display's orientation and screen.
    init(window: WindowSnapshot, display: DisplayFacts) {
        (width, height) = (window.frame.width, window.frame.height)
        (horizontal, vertical) = (LayoutTraits.SizeClass(window.horizontalSizeClass), LayoutTraits.SizeClass(window.verticalSizeClass))
        (orientation, screenWidth, screenHeight) = (display.orientation, display.screenWidth, display.screenHeight)
        idiom = window.idiom == .phone ? .phone : .pad
        safeArea = LayoutInsets(window.safeAreaInsets)
    }

    /// The context an adapter lays out in.
    var context: WindowContext {
        WindowContext(width: width, height: height,
                      traits: LayoutTraits(horizontal: horizontal, vertical: vertical, orientation: orientation),
                      screenWidth: screenWidth, screenHeight: screenHeight, idiom: idiom, safeArea: safeArea)
    }

    /// Takes in one of the window's transition signals; returns the transition id to lay out now, if this signal
    /// was the transition's last.
    mutating func handle(_ event: TraitEvent) -> UInt64? {
        guard let id = event.transition, let ready = readiness(event, id), ready != laidOut else { return nil }
        laidOut = ready
        return ready
    }

    private mutating func readiness(_ event: TraitEvent, _ id: UInt64) -> UInt64? {
        switch event {
        case .willTransitionToTraitCollection(_, _, let traits):
            (horizontal, vertical) = (LayoutTraits.SizeClass(traits.horizontalSizeClass), LayoutTraits.SizeClass(traits.verticalSizeClass))
            waitingForTraits = id
            return nil
        case .viewWillTransitionToSize(_, _, let size, let context):
            (width, height) = (size.width, size.height)
            orientation = LayoutTraits.Orientation(context.orientation)
            if let screen = context.screenSize { (screenWidth, screenHeight) = (screen.width, screen.height) }
            let insets = LayoutInsets(context.safeAreaInsets)
            if insets != safeArea {
                safeArea = insets
                waitingForSafeArea = id
            }
            return waitingForTraits == id || waitingForSafeArea == id ? nil : id
        case .traitCollectionDidChange:
            waitingForTraits = nil
            return waitingForSafeArea == id ? nil : id
        case .viewSafeAreaInsetsDidChange(_, _, let insets):
            // Without a size signal (the insets alone changed) this is the transition's first news of them.
            // A traits-only transition whose insets also change lays out at TraitCollectionDidChange with the
            // old insets: no built-in profile has one (it takes two screens of one size with different insets).
            safeArea = LayoutInsets(insets)
            waitingForSafeArea = nil
            return id
        default:
            return nil
        }
    }
}

/// The display's facts every window's layout may need, from `GetState` and the display's `PropertiesChanged`.
struct DisplayFacts {
    var orientation: LayoutTraits.Orientation = .landscape
    var screenWidth = 0.0
    var screenHeight = 0.0

    mutating func update(_ snapshot: DisplaySnapshot) {
        orientation = LayoutTraits.Orientation(snapshot.orientation)
        (screenWidth, screenHeight) = (snapshot.screenSize.width, snapshot.screenSize.height)
    }

    mutating func update(_ changes: PropertyChanges) {
        if let o = changes[Layout1.Display.orientation] { orientation = LayoutTraits.Orientation(o) }
        if let s = changes[Layout1.Display.screenSize] { (screenWidth, screenHeight) = (s.width, s.height) }
    }
}

// The model's types as the layout engine's (the engine is a library of its own and does not know the model).
extension LayoutTraits.SizeClass {
    init(_ sizeClass: SizeClass) { self = sizeClass == .compact ? .compact : .regular }
}

extension LayoutTraits.Orientation {
    init(_ orientation: Orientation) { self = orientation.isLandscape ? .landscape : .portrait }
}

extension LayoutInsets {
    init(_ insets: EdgeInsets) { self.init(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right) }
}
