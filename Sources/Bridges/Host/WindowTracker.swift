import Adapters
import TraitClient

/// What the host knows of one window, kept up to date from the daemon's signals, and when to lay it out.
///
/// A transition's signals come in UIKit's order (`WillTransitionToTraitCollection`, `ViewWillTransitionToSize`,
/// `TraitCollectionDidChange`, `ViewSafeAreaInsetsDidChange`), each present only when its part changes, and
/// end with `ViewWillLayoutSubviews`, which every transition sends last: the tracker takes in what each one
/// says and lays out once, at that last signal. The daemon says when a transition's news is complete; the host
/// does not guess it.
struct WindowTracker {
    var width: Double
    var height: Double
    var traits: TraitCollection
    var orientation: Orientation
    var screenWidth: Double
    var screenHeight: Double
    var safeArea: EdgeInsets
    /// The display's Reduce Motion: from the display's state and its `PropertiesChanged` (a change of it alone is
    /// no transition), and each `ViewWillTransitionToSize`'s context.
    var reduceMotion = false
    /// The window's top-left corner on its screen (its `Frame`), to put the keyboard in window coordinates.
    var origin: (x: Double, y: Double)
    /// The keyboard in screen coordinates and whether it is docked, as its notifications last said (nil: hidden).
    var keyboard: (frame: Rect, docked: Bool)?
    /// The safe area adapted to the window controls (`CornerAdaptedInsets`).
    var cornerAdaptedInsets: CornerAdaptedInsets
    /// The app's breakpoints the daemon says hold (`Breakpoints`): what the host checks its layout files'
    /// declarations against.
    var breakpoints: [String]

    /// From a window as `GetState` or `InterfacesAdded` gives it, and the display's orientation and screen.
    init(window: WindowSnapshot, display: DisplayFacts) {
        (width, height) = (window.frame.width, window.frame.height)
        origin = (window.frame.x, window.frame.y)
        cornerAdaptedInsets = window.cornerAdaptedInsets
        breakpoints = window.breakpoints
        if let frame = display.keyboardFrame, window.display == "device" { keyboard = (frame, display.keyboard.isDocked) }
        traits = window.traits
        reduceMotion = display.reduceMotion
        (orientation, screenWidth, screenHeight) = (display.orientation, display.screenWidth, display.screenHeight)
        safeArea = window.safeAreaInsets
    }

    /// The context an adapter lays out in.
    var context: WindowContext {
        var context = WindowContext(width: width, height: height, traits: traits, orientation: orientation,
                                    screenWidth: screenWidth, screenHeight: screenHeight, safeArea: safeArea)
        context.reduceMotion = reduceMotion
        if let keyboard {
            context.keyboard = Rect(x: keyboard.frame.x - origin.x, y: keyboard.frame.y - origin.y,
                                    width: keyboard.frame.width, height: keyboard.frame.height)
            context.keyboardDocked = keyboard.docked
        }
        context.cornerAdaptedInsets = cornerAdaptedInsets
        return context
    }

    /// Takes in one of the window's transition signals; returns the transition id to lay out now when the
    /// signal is the transition's last (`ViewWillLayoutSubviews`).
    mutating func handle(_ event: TraitEvent) -> UInt64? {
        switch event {
        case .willTransitionToTraitCollection(_, _, let new):
            traits = new
        case .viewWillTransitionToSize(_, _, let size, let context):
            (width, height) = (size.width, size.height)
            orientation = context.orientation
            if let screen = context.screenSize { (screenWidth, screenHeight) = (screen.width, screen.height) }
            safeArea = context.safeAreaInsets
            reduceMotion = context.traits[.reduceMotion] == "on"
        case .viewSafeAreaInsetsDidChange(_, _, let insets):
            safeArea = insets
        case .windowChanged(_, let changes):
            if let frame = changes[Layout1.Window.frame] { origin = (frame.x, frame.y) }
            if let held = changes[Layout1.Window.breakpoints] { breakpoints = held }
            if let corner = changes[Layout1.Window.cornerAdaptedInsets] {
                cornerAdaptedInsets = CornerAdaptedInsets(horizontal: corner["horizontal"] ?? safeArea, vertical: corner["vertical"] ?? safeArea)
            }
        case .keyboard(_, _, let notice):
            // A hide's end frame is below the screen: the keyboard is gone. WillShow says it is docked; a
            // WillChangeFrame without one, that it is not.
            switch notice.kind {
            case .willChangeFrame: keyboard = notice.end.y >= screenHeight ? nil : (notice.end, false)
            case .willShow: keyboard = (notice.end, true)
            default: break
            }
        case .viewWillLayoutSubviews(_, let id):
            return id
        default:
            break
        }
        return nil
    }
}

/// The display's facts every window's layout may need, from `GetState` and the display's `PropertiesChanged`.
struct DisplayFacts {
    var orientation: Orientation = .landscapeLeft
    var screenWidth = 0.0
    var screenHeight = 0.0
    var keyboard: KeyboardMode = .hidden
    var keyboardFrame: Rect?
    var reduceMotion = false

    mutating func update(_ snapshot: DisplaySnapshot) {
        orientation = snapshot.orientation
        reduceMotion = snapshot.traits[.reduceMotion] == "on"
        (screenWidth, screenHeight) = (snapshot.screenSize.width, snapshot.screenSize.height)
        (keyboard, keyboardFrame) = (snapshot.keyboard, snapshot.keyboardFrame)
    }

    mutating func update(_ changes: PropertyChanges) {
        if let o = changes[Layout1.Display.orientation] { orientation = o }
        if let s = changes[Layout1.Display.screenSize] { (screenWidth, screenHeight) = (s.width, s.height) }
        if let mode = changes[Layout1.Display.keyboard] { keyboard = mode }
        if let frame = changes[Layout1.Display.keyboardFrame] { keyboardFrame = keyboard == .hidden ? nil : frame }
        if let value = changes[Layout1.Display.trait(.reduceMotion)] { reduceMotion = value == "on" }
    }
}
