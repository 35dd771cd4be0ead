import Vocabulary

/// The modes the simulation's visible windows are in (`DrivenMode`), for coverage: the transition engine adds
/// them up after every command.
extension Simulation {
    /// One mode per window on a screen (an app in the background has none).
    public var drivenModes: Set<DrivenMode> {
        let profile = self.profile
        let table = profile.table(state.orientation)
        let deviceClass = Self.deviceClass(of: profile)
        let settings = DrivenMode.SettingValue.of(state.traits)
        let screen = profile.screenSize(state.orientation)
        return Set(windows.map { _, window in
            DrivenMode(deviceClass: deviceClass, landscape: state.orientation.isLandscape,
                       placement: Self.placement(of: window, table: table, screen: screen),
                       horizontal: window.traits.horizontalSizeClass, vertical: window.traits.verticalSizeClass,
                       settings: settings)
        })
    }

    /// Android's window size classes of the windows on a screen, and each of their apps' breakpoints, holding
    /// or not (`DrivenAdaptation`).
    public var drivenAdaptations: Set<DrivenAdaptation> {
        var result = Set<DrivenAdaptation>()
        for (app, window) in windows where window.state != .background {
            result.insert(.windowWidthSizeClass(window.traits.windowWidthSizeClass))
            result.insert(.windowHeightSizeClass(window.traits.windowHeightSizeClass))
            guard !window.declarations.breakpoints.isEmpty else { continue }
            let applied = Set(window.appliedBreakpoints)
            for name in window.declarations.breakpoints.keys {
                result.insert(.breakpoint(app: app, name: name, applied: applied.contains(name)))
            }
        }
        return result
    }

    static func deviceClass(of profile: DeviceProfile) -> DrivenMode.DeviceClass {
        switch profile.idiom {
        case .phone: return profile.landscape.widths[.full]?.horizontal == .regular ? .phoneMax : .phone
        case .pad:
            let shortSide = min(profile.landscapeScreen.width, profile.landscapeScreen.height)
            return shortSide < 768 ? .padMini : shortSide >= 1024 ? .pad13 : .pad
        }
    }

    /// A Split View or Slide Over window by the slot whose width it has; any other width (a free-form window, a
    /// divider drag's snapshot) by its share of the screen.
    static func placement(of window: WindowGeometry, table: DeviceProfile.OrientationTable, screen: Size) -> DrivenMode.Placement {
        if window.display != ConnectedDisplay.device { return .monitor }
        if window.role == .pip { return .pip }
        if window.role != .window {
            let slots: [(DeviceProfile.Slot, DrivenMode.Placement)] =
                [(.full, .full), (.twoThirds, .twoThirds), (.half, .half), (.oneThird, .oneThird), (.slideOver, .slideOver)]
            let candidates = window.role == .slideOver ? slots.filter { $0.0 == .slideOver } : slots.filter { $0.0 != .slideOver }
            if let slot = candidates.first(where: { table.widths[$0.0].map { abs($0.width - window.frame.width) < 0.5 } ?? false }) {
                return slot.1
            }
        }
        return .band(width: window.frame.width, screen: screen.width)
    }
}
