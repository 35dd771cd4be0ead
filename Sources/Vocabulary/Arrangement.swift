/// A multitasking arrangement, named by the primary app's share of the screen.
public enum Arrangement: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case full
    case splitTwoThirds = "split-two-thirds"
    case splitHalf = "split-half"
    case splitOneThird = "split-one-third"
    case slideOver = "slide-over"

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }

    /// Split View arrangements show two apps side by side with a divider.
    public var isSplit: Bool { primaryShare != nil && self != .full }

    /// Whether the arrangement shows a second app (beside or over the primary).
    public var needsSecondary: Bool { self != .full }

    /// The primary app's share of the width for Split View arrangements (full screen is 1), nil for Slide Over.
    public var primaryShare: Double? {
        switch self {
        case .full: return 1
        case .splitTwoThirds: return 2.0 / 3
        case .splitHalf: return 0.5
        case .splitOneThird: return 1.0 / 3
        case .slideOver: return nil
        }
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
