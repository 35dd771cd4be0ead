import Vocabulary

/// Where a window is and what traits it has: everything the simulation computes for one app.
public struct WindowGeometry: Sendable, Hashable {
    public var role: Role
    public var frame: Rect
    public var traits: TraitCollection
    public var state: AppState
    /// The window's safe-area insets, in its own coordinates (see `DisplayGeometry.safeArea(of:role:)`).
    public var safeArea: EdgeInsets
    /// The screen it is on: `ConnectedDisplay.device` or an external display's id.
    public var display: String
    /// A live resize of this free-form window is under way (`BeginResize` to `EndResize`), as UIWindowScene's
    /// `effectiveGeometry.isInteractivelyResizing` says; the window stays active throughout, as on iPadOS 26.
    public var interactivelyResizing = false
    /// The software keyboard as this window sees it (`Simulation.attachKeyboard`); nil when hidden or the window
    /// is off the device's screen. Not a property of the window: its changes are the keyboard's notifications.
    public var keyboard: WindowKeyboard?
    /// iPadOS 26's window controls, in window coordinates: a free-form window that does not fill its screen has
    /// them at its top leading corner (`Simulation.attachWindowControls`); nil for every other window.
    public var windowControls: Rect?
    /// The safe area adapted to the controls (`CornerAdaptedInsets`); the safe area itself without them.
    public var cornerAdaptedInsets = CornerAdaptedInsets(horizontal: .zero, vertical: .zero)
    /// Which way up the window's screen is (the device's interface orientation; a monitor is landscape).
    public var orientation: Orientation = .portrait
    /// What the app declared (`SetSizeRestrictions`, `SetSupportedOrientations`, `SetBreakpoints`,
    /// `SetTraitOverrides`).
    public var declarations = SceneDeclarations()
    /// The traits the system gave the window, before the app's overrides (`declarations.traitOverrides`) were
    /// applied to them; nil where it has none. What `explain` says an override replaced.
    public var traitsBeforeOverrides: TraitCollection?

    /// The scene's geometry as `UIWindowScene.Geometry` has it: what `DidUpdateEffectiveGeometry` compares.
    public var effectiveGeometry: EffectiveGeometry {
        EffectiveGeometry(frame: frame, display: display, orientation: orientation, interactivelyResizing: interactivelyResizing,
                          sizeRestrictions: declarations.sizeRestrictions)
    }

    public init(role: Role, frame: Rect, traits: TraitCollection, state: AppState, safeArea: EdgeInsets = .zero,
                display: String = ConnectedDisplay.device) {
        self.role = role
        self.frame = frame
        self.traits = traits
        self.state = state
        self.safeArea = safeArea
        self.display = display
        cornerAdaptedInsets = CornerAdaptedInsets(horizontal: safeArea, vertical: safeArea)
    }
}

extension WindowGeometry {
    /// The app's breakpoints whose condition holds for the window now, by name: judged against its size in
    /// points, its display's scale (`px`) and its text size (`sp`), as libadwaita judges them at each size
    /// allocation. A change is announced in the window's transition (`BreakpointUnapplied`, `BreakpointApplied`).
    public var appliedBreakpoints: [String] {
        guard !declarations.breakpoints.isEmpty else { return [] }
        return BreakpointCondition.holding(declarations.breakpoints,
                                           in: BreakpointCondition.Window(width: frame.width, height: frame.height, traits: traits))
    }

    /// The docked keyboard (or a hardware keyboard's shortcut bar) in the window's coordinates, cut to the
    /// window; nil when none reaches into it (what the layout checks' `under-keyboard` judges against).
    public var dockedKeyboard: Rect? {
        guard let keyboard, keyboard.mode.isDocked else { return nil }
        let inWindow = Rect(x: keyboard.frame.x - frame.x, y: keyboard.frame.y - frame.y,
                            width: keyboard.frame.width, height: keyboard.frame.height)
        return inWindow.intersection(Rect(x: 0, y: 0, width: frame.width, height: frame.height))
    }
}

/// A window's published geometry, one case per property (their names on the bus are `Encoding`'s business).
public enum WindowProperty: Sendable, CaseIterable {
    case role, frame, horizontalSizeClass, verticalSizeClass, traits, state, safeArea, display, interactivelyResizing
    case windowControls, cornerAdaptedInsets
    /// What the app declared: its size restrictions and supported orientations.
    case sizeRestrictions, supportedOrientations
    /// The app's breakpoints that apply (`appliedBreakpoints`).
    case breakpoints
}

extension WindowGeometry {
    /// The properties whose value differs from `old`'s: what a `PropertiesChanged` of the window carries.
    public func changes(from old: WindowGeometry) -> Set<WindowProperty> {
        Set(WindowProperty.allCases.filter { property in
            switch property {
            case .role: return role != old.role
            case .frame: return frame != old.frame
            case .horizontalSizeClass: return traits.horizontalSizeClass != old.traits.horizontalSizeClass
            case .verticalSizeClass: return traits.verticalSizeClass != old.traits.verticalSizeClass
            case .traits: return traits != old.traits
            case .state: return state != old.state
            case .safeArea: return safeArea != old.safeArea
            case .display: return display != old.display
            case .interactivelyResizing: return interactivelyResizing != old.interactivelyResizing
            case .windowControls: return windowControls != old.windowControls
            case .cornerAdaptedInsets: return cornerAdaptedInsets != old.cornerAdaptedInsets
            case .sizeRestrictions: return declarations.sizeRestrictions != old.declarations.sizeRestrictions
            case .supportedOrientations: return declarations.supportedOrientations != old.declarations.supportedOrientations
            case .breakpoints: return appliedBreakpoints != old.appliedBreakpoints
            }
        })
    }
}

/// Picture in Picture: a 16:9 window as wide as the device's Slide Over window in that orientation, 20 pt
/// from the bottom-right corner, horizontally and vertically compact. (No public table gives PiP sizes; this
/// rule keeps it inside every screen and is easy to check.)
public enum PictureInPicture {
    public static let margin = 20.0
    public static let aspect = 9.0 / 16.0
}

/// The geometry of every window for one (device, orientation, arrangement): the tables of
/// `shared/reference/ipad-geometry.md` turned into frames.
public struct DisplayGeometry: Sendable {
    public let profile: DeviceProfile
    public let orientation: Orientation
    public let arrangement: Arrangement

    public init(profile: DeviceProfile, orientation: Orientation, arrangement: Arrangement) {
        self.profile = profile
        self.orientation = orientation
        self.arrangement = arrangement
    }

    public var screen: Size { profile.screenSize(orientation) }

    /// The primary app's frame and horizontal size class.
    public var primary: (frame: Rect, horizontal: SizeClass) {
        let t = profile.table(orientation).widths
        let height = screen.height
        switch arrangement {
        case .full, .slideOver:
            return (Rect(x: 0, y: 0, width: screen.width, height: height), t[.full]!.horizontal)
        case .splitTwoThirds, .splitHalf, .splitOneThird:
            let slot = DeviceProfile.slots(for: arrangement)[0]
            return (Rect(x: 0, y: 0, width: t[slot]!.width, height: height), t[slot]!.horizontal)
        }
    }

    /// The secondary app's frame, horizontal size class and role; nil for `full` (no secondary on screen).
    public var secondary: (frame: Rect, horizontal: SizeClass, role: Role)? {
        let t = profile.table(orientation).widths
        switch arrangement {
        case .full:
            return nil
        case .slideOver:
            let w = t[.slideOver]!
            let inset = profile.slideOverHeightInset
            // Centred vertically: the inset splits into the status-bar margin above and the same margin below.
            let frame = Rect(x: screen.width - w.width, y: inset / 2, width: w.width, height: screen.height - inset)
            return (frame, w.horizontal, .slideOver)
        case .splitTwoThirds, .splitHalf, .splitOneThird:
            let slots = DeviceProfile.slots(for: arrangement)
            let w = t[slots.count > 1 ? slots[1] : slots[0]]!
            let x = primary.frame.width + profile.dividerWidth
            return (Rect(x: x, y: 0, width: w.width, height: screen.height), w.horizontal, .secondary)
        }
    }

    /// The Picture-in-Picture window's frame (see `PictureInPicture`).
    public var pip: Rect {
        let width = profile.table(orientation).widths[.slideOver]?.width ?? min(320, screen.width / 3)
        let height = (width * PictureInPicture.aspect).rounded()
        return Rect(
            x: screen.width - PictureInPicture.margin - width, y: screen.height - PictureInPicture.margin - height,
            width: width, height: height)
    }

    /// The divider's x position (its left edge), nil when there is no split.
    public var dividerX: Double? { arrangement.isSplit ? primary.frame.width : nil }

    /// A window's safe-area insets: the screen's inset on each screen edge the window touches (a Split View side
    /// touches the top, the bottom and its outer edge; a free-form window the edges it is placed against). Slide Over and Picture in Picture float inside the
    /// screen, already clear of the status bar and the home indicator, and get none.
    public func safeArea(of frame: Rect, role: Role) -> EdgeInsets {
        guard role == .primary || role == .secondary || role == .window else { return .zero }
        let screenInsets = profile.table(orientation).safeArea
        let touches = (
            top: frame.y <= 0, left: frame.x <= 0,
            bottom: frame.y + frame.height >= screen.height, right: frame.x + frame.width >= screen.width)
        return EdgeInsets(
            top: touches.top ? screenInsets.top : 0, left: touches.left ? screenInsets.left : 0,
            bottom: touches.bottom ? screenInsets.bottom : 0, right: touches.right ? screenInsets.right : 0)
    }

    public func traits(horizontal: SizeClass) -> TraitCollection {
        TraitCollection(
            horizontalSizeClass: horizontal, verticalSizeClass: profile.table(orientation).vertical,
            idiom: profile.idiom, displayScale: profile.scale)
    }
}
