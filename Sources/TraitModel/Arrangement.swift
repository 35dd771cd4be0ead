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

    /// The arrangement among `offered` closest to `self`, as iPadOS moves a split that a rotation makes impossible.
    ///
    /// Nearest by the primary's share; a tie (a 50/50 split when only 2/3 and 1/3 remain) goes to the larger
    /// share for the primary, as the secondary app may take at most half in the iOS 9 rule.
    public func nearest(in offered: [Arrangement]) -> Arrangement {
        if offered.contains(self) { return self }
        guard let share = primaryShare else { return offered.first ?? .full }
        let candidates = offered.filter { $0.primaryShare != nil && ($0 == .full) == (self == .full) }
        let best = candidates.min { a, b in
            let da = abs(a.primaryShare! - share)
            let db = abs(b.primaryShare! - share)
            return abs(da - db) < 1e-9 ? a.primaryShare! > b.primaryShare! : da < db
        }
        return best ?? .full
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
