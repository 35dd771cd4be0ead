/// Dynamic Type's text size (`UIContentSizeCategory`), smallest first, with simctl's names.
public enum ContentSizeCategory: String, Sendable, CaseIterable, Comparable, Codable, CustomStringConvertible {
    case extraSmall = "extra-small"
    case small
    case medium
    case large
    case extraLarge = "extra-large"
    case extraExtraLarge = "extra-extra-large"
    case extraExtraExtraLarge = "extra-extra-extra-large"
    case accessibilityMedium = "accessibility-medium"
    case accessibilityLarge = "accessibility-large"
    case accessibilityExtraLarge = "accessibility-extra-large"
    case accessibilityExtraExtraLarge = "accessibility-extra-extra-large"
    case accessibilityExtraExtraExtraLarge = "accessibility-extra-extra-extra-large"

    public var description: String { rawValue }

    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    /// The next larger category (the largest stays), as `simctl ui content_size increment`.
    public var larger: ContentSizeCategory { Self.allCases[min(index + 1, Self.allCases.count - 1)] }
    /// The next smaller category (the smallest stays).
    public var smaller: ContentSizeCategory { Self.allCases[max(index - 1, 0)] }

    private var index: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (a: Self, b: Self) -> Bool { a.index < b.index }

    /// The Body text style's size in points: Apple's typography tables, measured in the simulator
    /// (`docs/reference/traits.md`, from the shared reference's `uikit-transitions.md`). In the accessibility
    /// categories only Body, and the styles that follow it, keep growing.
    public var bodySize: Double {
        switch self {
        case .extraSmall: return 14
        case .small: return 15
        case .medium: return 16
        case .large: return 17
        case .extraLarge: return 19
        case .extraExtraLarge: return 21
        case .extraExtraExtraLarge: return 23
        case .accessibilityMedium: return 28
        case .accessibilityLarge: return 33
        case .accessibilityExtraLarge: return 40
        case .accessibilityExtraExtraLarge: return 47
        case .accessibilityExtraExtraExtraLarge: return 53
        }
    }

    /// How much larger than at `large` the body text is: what a desktop's text-scaling-factor says
    /// (`PortalSettings`).
    public var scale: Double { bodySize / Self.large.bodySize }
}
