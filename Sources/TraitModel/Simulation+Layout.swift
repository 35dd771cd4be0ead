import Vocabulary

/// Every window's geometry for a state: frames, traits, safe areas and app states by role (the free-form
/// window's in `Simulation+FreeForm`).
extension Simulation {
    /// Every window's geometry for `state`. A secondary app in the background (arrangement `full`) is suspended
    /// with the geometry it last had on screen (UIKit resizes no suspended app; it sees the new size when it comes
    /// back); after a device change it takes the same split's secondary side on the new device, so no window ever
    /// publishes another device's frame or safe area. One never shown gets the narrow side of a 2/3 split. During
    /// a drag the split apps show the drag's snapshot geometry and are inactive.
    static func layout(
        _ state: DisplayState, drag: DividerDrag?, resizing: String?, profile: DeviceProfile,
        previous: [String: WindowGeometry], previousProfile: DeviceProfile?
    ) -> [String: WindowGeometry] {
        let geometry = DisplayGeometry(
            profile: profile, orientation: state.orientation, arrangement: drag?.shown ?? state.arrangement)
        let onScreen: AppState = drag == nil ? .active : .inactive
        var result: [String: WindowGeometry] = [:]
        for app in state.apps {
            switch app.role {
            case .primary:
                let (frame, horizontal) = geometry.primary
                result[app.name] = WindowGeometry(
                    role: .primary, frame: frame, traits: geometry.traits(horizontal: horizontal), state: onScreen,
                    safeArea: geometry.safeArea(of: frame, role: .primary))
            case .secondary, .slideOver:
                if let (frame, horizontal, role) = geometry.secondary {
                    result[app.name] = WindowGeometry(
                        role: role, frame: frame, traits: geometry.traits(horizontal: horizontal), state: onScreen,
                        safeArea: geometry.safeArea(of: frame, role: role))
                } else if var kept = previous[app.name], previousProfile.map({ $0.id == profile.id }) ?? true {
                    kept.state = .background
                    kept.role = .secondary
                    // The system's traits it had, without the app's overrides: those are applied again below,
                    // as the app has them now (it may have dropped some, or a Reset all).
                    kept.traits = kept.traitsBeforeOverrides ?? kept.traits
                    kept.traits.custom = [:]
                    kept.traitsBeforeOverrides = nil
                    result[app.name] = kept
                } else {
                    // Never shown, or shown on another device: the split it was last shown in (2/3 when unknown),
                    // or the nearest this device offers in this orientation.
                    let last = previous[app.name].flatMap { kept in previousProfile.flatMap { Self.split(showing: kept.frame, on: $0) } }
                    let offered = profile.offeredArrangements(state.orientation).filter { $0.needsSecondary && $0 != .slideOver }
                    let split = (last ?? .splitTwoThirds).nearest(in: offered.isEmpty ? [.splitTwoThirds] : offered)
                    let offstage = DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: split)
                    let (frame, horizontal, _) = offstage.secondary!
                    result[app.name] = WindowGeometry(
                        role: .secondary, frame: frame, traits: offstage.traits(horizontal: horizontal), state: .background,
                        safeArea: offstage.safeArea(of: frame, role: .secondary))
                }
            case .window:
                result[app.name] = freeWindow(app.name, in: state, geometry: geometry, profile: profile, resizing: resizing)
            case .pip:
                let traits = TraitCollection(
                    horizontalSizeClass: .compact, verticalSizeClass: .compact, idiom: profile.idiom,
                    displayScale: profile.scale)
                result[app.name] = WindowGeometry(role: .pip, frame: geometry.pip, traits: traits, state: .active)
            }
        }
        // The traits every window shares, and the level that depends on its role (`InterfaceLevel`); a suspended
        // window's too, so that it never publishes a setting the display no longer has. Which visible windows look
        // frontmost (`ActiveAppearance`); a suspended window keeps what it had.
        let fronts = frontWindows(state)
        for (name, window) in result {
            var traits = window.traits
            traits.display = state.traits.windowTraits
            traits.displayGamut = window.display == ConnectedDisplay.device ? profile.gamut : ExternalScreen.gamut
            traits.userInterfaceLevel = window.role == .slideOver || window.role == .pip ? .elevated : .base
            if window.state != .background {
                traits.activeAppearance = window.role != .window || fronts.contains(name) ? .active : .inactive
            }
            traits.windowWidthSizeClass = WindowWidthSizeClass(width: window.frame.width)
            traits.windowHeightSizeClass = WindowHeightSizeClass(height: window.frame.height)
            result[name]?.traits = traits
        }
        attachKeyboard(&result, state, profile: profile)
        attachWindowControls(&result, state, profile: profile)
        for name in result.keys {
            result[name]?.orientation = state.display(of: name) == ConnectedDisplay.device ? state.orientation : .landscapeLeft
            result[name]?.declarations = state.declarations[name] ?? SceneDeclarations()
        }
        // Last, the app's own overrides (`SetTraitOverrides`), over everything the system decided, as UIKit's
        // `traitOverrides` sit above the traits a scene inherits; what they replaced is kept for `explain`.
        for (name, declared) in state.declarations where !declared.traitOverrides.isEmpty {
            guard let traits = result[name]?.traits else { continue }
            result[name]?.traitsBeforeOverrides = traits
            result[name]?.traits = declared.traitOverrides.applied(to: traits)
        }
        return result
    }

    /// In a free-form mode, the front window of each screen: the first of the stacking (front to back) on it.
    static func frontWindows(_ state: DisplayState) -> Set<String> {
        guard state.windowing.isFreeForm else { return [] }
        var fronts: [String: String] = [:]
        for app in state.stacking where fronts[state.display(of: app)] == nil { fronts[state.display(of: app)] = app }
        return Set(fronts.values)
    }
}
