import Vocabulary

/// The model's rule for an arrangement a rotation or a device makes impossible.
extension Arrangement {
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
}
