import Vocabulary

/// A Split View divider drag in progress (seed document 004): the apps are inactive, the divider follows the
/// finger, and the windows show the geometry of the last snap point the divider reached.
public struct DividerDrag: Sendable, Equatable {
    /// The divider's left edge, in points from the left of the screen (the primary window's width).
    public var position: Double
    /// The split whose window sizes the apps show: the drag's start, then each snap point the divider crosses.
    public var shown: Arrangement

    public init(position: Double, shown: Arrangement) {
        self.position = position
        self.shown = shown
    }
}

/// Where a divider can snap, and where it dismisses an app, for one (device, orientation).
///
/// The snap points are the divider positions of the Split View arrangements the device offers there (on the
/// 9.7-inch iPad in landscape: 320, 507 and 694). Releasing the divider closer to an edge than half the
/// narrowest split side (160 pt there) dismisses the app on that side.
public struct DividerTrack: Sendable {
    public let snapPoints: [(position: Double, arrangement: Arrangement)]
    /// The largest divider position: the screen width minus the divider.
    public let end: Double
    public let dismissDistance: Double

    public init(profile: DeviceProfile, orientation: Orientation) {
        let splits = profile.offeredArrangements(orientation).filter(\.isSplit)
        snapPoints = splits.map { arrangement in
            (DisplayGeometry(profile: profile, orientation: orientation, arrangement: arrangement).primary.frame.width,
             arrangement)
        }.sorted { $0.position < $1.position }
        let end = profile.screenSize(orientation).width - profile.dividerWidth
        self.end = end
        let narrowest = snapPoints.map { min($0.position, end - $0.position) }.min() ?? end / 3
        dismissDistance = narrowest / 2
    }

    /// The snap points passed on the way from `old` to `new`, in the order they are passed. A point the divider
    /// lands on counts; the point it starts on does not.
    public func crossed(from old: Double, to new: Double) -> [Arrangement] {
        if new > old {
            return snapPoints.filter { $0.position > old && $0.position <= new }.map(\.arrangement)
        } else if new < old {
            return snapPoints.filter { $0.position < old && $0.position >= new }.reversed().map(\.arrangement)
        }
        return []
    }

    /// What releasing the divider at `position` does.
    public func release(at position: Double) -> Release {
        if position < dismissDistance { return .dismissLeft }
        if end - position < dismissDistance { return .dismissRight }
        let nearest = snapPoints.min { a, b in
            let da = abs(a.position - position)
            let db = abs(b.position - position)
            // A tie goes to the larger primary share, as `Arrangement.nearest` does.
            return abs(da - db) < 1e-9 ? a.position > b.position : da < db
        }
        return .snap(nearest?.arrangement ?? .full)
    }

    public enum Release: Sendable, Equatable {
        case snap(Arrangement)
        /// The primary (left) app leaves the screen; the secondary takes it whole.
        case dismissLeft
        /// The secondary (right) app leaves the screen; the primary takes it whole.
        case dismissRight
    }
}
