import Vocabulary

/// A device's software keyboard: its docked height per orientation (the keys and the predictive bar above them,
/// the shared reference's section 1), whether it splits, and how sure the numbers are; and where each mode puts
/// it on the screen. The modes' sizes Apple publishes nowhere are traitd's documented choices (the reference's
/// section 2), each named below.
public struct KeyboardTable: Sendable, Hashable {
    /// Points, per orientation: the key area (on Face ID iPhones with the row below the keys and the home
    /// indicator's inset) and the predictive bar.
    public struct Height: Sendable, Hashable {
        public var keys: Double
        public var bar: Double
        public init(keys: Double, bar: Double) {
            self.keys = keys
            self.bar = bar
        }
        /// The docked keyboard with its predictive bar, as apps see it.
        public var docked: Double { keys + bar }
    }

    public var portrait: Height
    public var landscape: Height
    /// The split keyboard is offered (iPads but the 11" and 12.9" Pros from 2018 on).
    public var offersSplit: Bool
    public var confidence: String

    public init(portrait: Height, landscape: Height, offersSplit: Bool, confidence: String) {
        self.portrait = portrait
        self.landscape = landscape
        self.offersSplit = offersSplit
        self.confidence = confidence
    }

    /// The shortcut bar of an attached hardware keyboard: 55 pt (measured on a 9.7" iPad), above the screen's
    /// bottom safe-area inset.
    public static let shortcutBar = 55.0
    /// The floating keyboard (an iPad): iPhone-sized; Apple gives no size, so traitd's choice is the 375-pt
    /// iPhone keyboard with its bar, 320 x 260, centred 20 pt above the bottom edge.
    public static let floating = Size(width: 320, height: 260)
    public static let floatingMargin = 20.0
    /// The undocked and split keyboards' bottom edge, above the screen's (traitd's choice: no source gives it).
    public static let undockedLift = 120.0
    /// The split keyboard's halves: 320 pt wide each, at the side edges, as tall as the keys (no bar).
    public static let splitHalfWidth = 320.0

    /// A profile without a `keyboard:` section (one written before it existed): the reference's row for a
    /// device of its kind and size, by the portrait screen's width (iPads) or height (iPhones).
    public static func derived(idiom: Idiom, landscapeScreen: Size) -> KeyboardTable {
        let short = min(landscapeScreen.width, landscapeScreen.height), long = max(landscapeScreen.width, landscapeScreen.height)
        let note = "derived: the reference's row for a screen of \(short.compact) x \(long.compact) pt (the profile names none)"
        switch idiom {
        case .phone:
            let (portrait, landscape): (Height, Height) =
                short <= 320 ? (Height(keys: 216, bar: 37), Height(keys: 162, bar: 37))
                : long <= 667 ? (Height(keys: 216, bar: 44), Height(keys: 163, bar: 37))
                : long <= 736 ? (Height(keys: 226, bar: 45), Height(keys: 163, bar: 37))
                : short >= 414 ? (Height(keys: 302, bar: 44), Height(keys: 172, bar: 37))
                : (Height(keys: 292, bar: 44), Height(keys: 172, bar: 37))
            return KeyboardTable(portrait: portrait, landscape: landscape, offersSplit: false, confidence: note)
        case .pad:
            let (portrait, landscape): (Double, Double) =
                short < 768 ? (328, 368) : short >= 1024 ? (348, 441) : long > 1112 ? (283, 368) : (263, 348)
            return KeyboardTable(portrait: Height(keys: portrait, bar: 50), landscape: Height(keys: landscape, bar: 50),
                                 offersSplit: true, confidence: note)
        }
    }
}

extension DeviceProfile {
    /// The keyboard modes this device offers: a phone has no undocked, split or floating keyboard.
    public var offeredKeyboards: [KeyboardMode] {
        switch idiom {
        case .phone: return [.hidden, .docked, .hardware]
        case .pad: return KeyboardMode.allCases.filter { $0 != .split || keyboard.offersSplit }
        }
    }

    /// The keyboard's frame on the screen in `orientation`, in `mode` (nil when hidden): docked, the full width
    /// at the bottom, its height from the table (the bar included); the shortcut bar of a hardware keyboard
    /// above the bottom safe-area inset; undocked, the docked keyboard lifted `undockedLift`; split, the two
    /// halves' bounding box (as tall as the keys); floating, `floating`'s size centred near the bottom.
    public func keyboardFrame(_ mode: KeyboardMode, _ orientation: Orientation) -> Rect? {
        let screen = screenSize(orientation)
        let height = orientation.isLandscape ? keyboard.landscape : keyboard.portrait
        switch mode {
        case .hidden: return nil
        case .docked: return Rect(x: 0, y: screen.height - height.docked, width: screen.width, height: height.docked)
        case .hardware:
            let bar = KeyboardTable.shortcutBar + table(orientation).safeArea.bottom
            return Rect(x: 0, y: screen.height - bar, width: screen.width, height: bar)
        case .undocked:
            return Rect(x: 0, y: screen.height - height.docked - KeyboardTable.undockedLift, width: screen.width, height: height.docked)
        case .split:
            return Rect(x: 0, y: screen.height - height.keys - KeyboardTable.undockedLift, width: screen.width, height: height.keys)
        case .floating:
            let size = KeyboardTable.floating
            return Rect(x: (screen.width - size.width) / 2, y: screen.height - size.height - KeyboardTable.floatingMargin,
                        width: size.width, height: size.height)
        }
    }
}
