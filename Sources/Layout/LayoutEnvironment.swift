import Vocabulary

/// Everything a layout is solved in: the window's size and traits, the device's orientation, whether the window
/// is narrower than the screen, and the window's safe area (the `safe` guide). The traits and insets are the
/// ones traitd publishes (`Vocabulary`), so a trait the daemon adds reaches layouts without a copy of it here.
public struct LayoutEnvironment: Sendable, Equatable {
    /// The window's width in points.
    public var width: Double
    /// The window's height in points.
    public var height: Double
    /// The window's trait collection: size classes, idiom, display scale.
    public var traits: TraitCollection
    /// Which way the device is held (a layout's `[landscape]` holds either way round).
    public var orientation: Orientation
    /// The window is narrower than the screen: a Split View side or a Slide Over window.
    public var isSplit: Bool
    /// The window's safe area, inset from its edges: where the `safe` guide is.
    public var safeArea: EdgeInsets
    /// The software keyboard's frame in the window's coordinates (nil while hidden, or on another screen): where
    /// the `keyboard` guide is (`keyboardGuide`).
    public var keyboard: Rect?
    /// Whether the keyboard is docked at the bottom edge (docked, or a hardware keyboard's shortcut bar).
    public var keyboardDocked = false
    /// The safe area adapted to iPadOS 26's window controls: where the `safeHorizontal` and `safeVertical` guides
    /// are (the safe area itself where the window has no controls).
    public var cornerAdaptedInsets: CornerAdaptedInsets {
        get { corner ?? CornerAdaptedInsets(horizontal: safeArea, vertical: safeArea) }
        set { corner = newValue }
    }
    private var corner: CornerAdaptedInsets?

    /// The environment of a window of `width` by `height` points; traits from
    /// ``LayoutEnvironment/defaultTraits(width:height:)`` and the orientation from the window's shape unless
    /// given, not split, no insets.
    public init(width: Double, height: Double, traits: TraitCollection? = nil, orientation: Orientation? = nil,
                isSplit: Bool = false, safeArea: EdgeInsets = .zero) {
        self.width = width
        self.height = height
        self.traits = traits ?? Self.defaultTraits(width: width, height: height)
        self.orientation = orientation ?? (width > height ? .landscapeLeft : .portrait)
        self.isSplit = isSplit
        self.safeArea = safeArea
    }

    /// width / height; infinite for a window with no height.
    public var aspectRatio: Double { height > 0 ? width / height : .infinity }

    /// The window as a breakpoint sees it: its size, its display's scale and its text size (`sp`, `pt`).
    public var breakpointWindow: BreakpointCondition.Window {
        BreakpointCondition.Window(width: width, height: height, traits: traits)
    }

    /// Traits for a window of this size when none are given: an iPad window at 2x, horizontally regular from
    /// `SizeClass.narrowestRegularWidth` (678 pt), vertically
    /// regular (as on every iPad).
    public static func defaultTraits(width: Double, height: Double) -> TraitCollection {
        TraitCollection(horizontalSizeClass: .horizontal(width: width), verticalSizeClass: .regular,
                        idiom: .pad, displayScale: 2)
    }

    /// Where the `keyboard` guide is, by `UIKeyboardLayoutGuide`'s rules: a docked keyboard that reaches into
    /// the window, from its top to the window's bottom edge, the window's width; with `followsUndocked`, an
    /// undocked, split or floating keyboard that reaches into the window, its own frame; otherwise the bottom
    /// safe-area inset (the guide's top is the safe area's bottom, its height the inset).
    public func keyboardGuide(followsUndocked: Bool) -> Rect {
        let offscreen = Rect(x: 0, y: height - safeArea.bottom, width: width, height: safeArea.bottom)
        guard let keyboard, keyboard.y < height, keyboard.y + keyboard.height > 0,
              keyboard.x < width, keyboard.x + keyboard.width > 0 else { return offscreen }
        if keyboardDocked {
            let top = max(0, keyboard.y)
            return Rect(x: 0, y: top, width: width, height: height - top)
        }
        return followsUndocked ? keyboard : offscreen
    }
}
