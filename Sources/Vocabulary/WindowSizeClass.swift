/// Android's window size classes (androidx.window's `WindowSizeClass`, Material 3's adaptive layout), from a
/// window's size, published as the traits `windowWidthSizeClass` and `windowHeightSizeClass`. Android measures
/// in dp (1/160 inch); traitd gives them the window's size in points, one point a dp: a choice (an iOS point
/// is 1/163 inch on the first iPhone), so that a window of 600 pt is Android's 600-dp medium window.
/// Thresholds: developer.android.com, "Use window size classes" (docs/reference/breakpoints-and-window-size-classes.md).
public enum WindowWidthSizeClass: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Narrower than 600 dp: a phone held upright.
    case compact
    /// 600 to 840 dp: a tablet upright, a large unfolded foldable.
    case medium
    /// 840 to 1200 dp: a tablet in landscape.
    case expanded
    /// 1200 to 1600 dp (androidx.window 1.4): a large tablet in landscape.
    case large
    /// 1600 dp and wider (androidx.window 1.4): a desktop-sized window.
    case extraLarge = "extra-large"

    /// The lower bound of each class but `compact`, in dp: the class is the last whose bound the width reaches.
    public static let thresholds: [(WindowWidthSizeClass, Double)] = [(.medium, 600), (.expanded, 840), (.large, 1200), (.extraLarge, 1600)]

    /// The class of a window `width` dp wide.
    public init(width: Double) {
        self = Self.thresholds.last { width >= $0.1 }?.0 ?? .compact
    }

    public var description: String { rawValue }
}

/// Android's window height size class (see `WindowWidthSizeClass`: the same source and the same points-as-dp).
public enum WindowHeightSizeClass: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Shorter than 480 dp: a phone in landscape.
    case compact
    /// 480 to 900 dp: a tablet in landscape, a phone upright.
    case medium
    /// 900 dp and taller: a tablet upright.
    case expanded

    /// The lower bound of each class but `compact`, in dp.
    public static let thresholds: [(WindowHeightSizeClass, Double)] = [(.medium, 480), (.expanded, 900)]

    /// The class of a window `height` dp tall.
    public init(height: Double) {
        self = Self.thresholds.last { height >= $0.1 }?.0 ?? .compact
    }

    public var description: String { rawValue }
}
