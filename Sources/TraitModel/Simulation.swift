import Vocabulary

/// The simulated display: a device, its orientation and arrangement, and the apps on it.
///
/// Pure and deterministic: `apply` takes a command and returns the plan of what changed, or throws and
/// changes nothing. `serial` increases by one with every command that changes something, and never otherwise.
public struct Simulation: Sendable {
    public let catalog: DeviceCatalog
    public var settings: TransitionSettings
    /// The state, its windows, the divider drag and the serial are set by `commit` (Simulation+Commit) only.
    public internal(set) var state: DisplayState
    public internal(set) var windows: [String: WindowGeometry]
    public internal(set) var serial: UInt64

    /// At most three apps in Split View: primary, secondary and Picture in Picture
    /// (`shared/reference/uikit-transitions.md`). Free-form modes allow their window limit and one PiP.
    public static let maximumApps = 3

    /// How many windows the `windowed` mode keeps on screen (the config's `windowing: windowed-limit`); no
    /// source gives iPadOS 26's, so traitd's default is 8, twice Stage Manager's stage.
    public var windowedLimit: Int = Self.defaultWindowedLimit
    public static let defaultWindowedLimit = 8

    /// The most free-form windows `mode` keeps on screen (Picture in Picture not counted).
    public func windowLimit(_ mode: Windowing) -> Int { Self.windowLimit(mode, windowedLimit: windowedLimit) }

    static func windowLimit(_ mode: Windowing, windowedLimit: Int) -> Int {
        switch mode {
        case .splitView: return 2
        case .stageManager: return FreeFormRules.stageLimit
        case .windowed: return windowedLimit
        }
    }

    public init(
        catalog: DeviceCatalog, state: DisplayState, settings: TransitionSettings = .init(), serial: UInt64 = 1,
        windowedLimit: Int = Self.defaultWindowedLimit
    ) throws(ModelError) {
        self.catalog = catalog
        self.settings = settings
        self.serial = serial
        self.windowedLimit = windowedLimit
        let profile = try catalog.profile(state.device)
        var state = state
        state.orientation = profile.nearestOrientation(to: state.orientation)
        state.arrangement = state.arrangement.nearest(in: profile.offeredArrangements(state.orientation))
        state.keyboard = Self.nearestKeyboard(state.keyboard, on: profile)
        if state.windowing.isFreeForm {
            Self.completeFreeForm(&state, profile: profile)
            if !profile.offeredWindowing.contains(state.windowing) {
                _ = Self.leaveFreeForm(&state, profile: profile, windows: [:])
            }
        }
        _ = Self.dismissSecondaryIfNoRoom(&state, profile: profile, windows: [:])
        Self.fitFrames(&state, profile: profile)
        let problems = Self.problems(in: state, profile: profile, windowedLimit: windowedLimit)
        guard problems.isEmpty else { throw .invalidState(problems) }
        self.state = state
        self.windows = Self.layout(state, drag: nil, resizing: nil, profile: profile, previous: [:], previousProfile: nil)
    }

    public var profile: DeviceProfile { catalog.profiles[state.device]! }

    public var geometry: DisplayGeometry {
        DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: state.arrangement)
    }

    /// Open apps in display order: primary, secondary, pip; free-form windows in the order they opened, then pip.
    public var appNames: [String] { Self.ordered(state).map(\.name) }

    /// The windows on screen, front to back: Picture in Picture (it floats over everything), then Slide Over,
    /// then the split's sides, primary first; in a free-form mode the stage front to back after PiP.
    public var stacking: [String] { stacking(of: appNames) }

    /// `stacking`, given `appNames` (the display's snapshot works them out once for all its lists).
    func stacking(of appNames: [String]) -> [String] {
        let pip = state.app(holding: .pip).map { [$0.name] } ?? []
        if state.windowing.isFreeForm { return pip + state.stacking }
        let onScreen = appNames.filter { windows[$0]?.state != .background && windows[$0]?.role != .pip }
        let slideOver = onScreen.filter { windows[$0]?.role == .slideOver }
        return pip + slideOver + onScreen.filter { windows[$0]?.role != .slideOver }
    }

    /// The free-form window being resized live, if any (`BeginResize` to `EndResize`).
    public internal(set) var resizing: String?

    /// Every app not on screen, in one meaning of background: the windows that are open but off screen (a
    /// secondary app while the arrangement is full screen, `State` `background`) in display order, then the apps
    /// with no window (dismissed by the divider or by a device with no room), oldest first. `BackgroundApps` and
    /// `traitctl status` say this list; `OpenApp` brings back one of the second kind, `SetArrangement` one of the
    /// first.
    public var backgroundApps: [String] { backgroundApps(of: appNames) }

    /// `backgroundApps`, given `appNames`.
    func backgroundApps(of appNames: [String]) -> [String] {
        appNames.filter { windows[$0]?.state == .background } + state.background
    }

    /// The divider drag in progress, if any.
    public internal(set) var drag: DividerDrag?

    /// The divider's left edge: where the drag holds it, else the split's divider, else 0 (no divider, or
    /// free-form windows).
    public var dividerPosition: Double {
        state.windowing.isFreeForm ? 0 : drag?.position ?? geometry.dividerX ?? 0
    }

    public var dividerTrack: DividerTrack { DividerTrack(profile: profile, orientation: state.orientation) }

    /// Applies a command and returns what to announce, in order: usually one plan, none when nothing changes,
    /// and one per snap point when a divider move crosses several. On error nothing changes. Each command has
    /// its own method below; this is the one entry the daemon (and the tests' command lists) use.
    ///
    /// A command is a transaction: it runs on a copy, which becomes the simulation only when the whole command
    /// succeeds. A command may commit more than one stage before it can refuse (a geometry request turns the
    /// display, then finds its size is not the app's to ask): applied in place, the turn stayed, its plan was
    /// dropped with the error, and the refusal had moved the Serial and the saved state.
    public mutating func apply(_ command: Command) throws(ModelError) -> [Plan] {
        var next = self
        let plans = try next.perform(command)
        self = next
        return plans
    }

    /// `apply`'s work, in place: each command's method, which may have committed a stage when it throws.
    private mutating func perform(_ command: Command) throws(ModelError) -> [Plan] {
        switch command {
        case .setDevice(let id): return try setDevice(id)
        case .rotate(let orientation): return try rotate(to: orientation)
        case .setArrangement(let arrangement): return try setArrangement(arrangement)
        case .openApp(let name, let role): return try openApp(name, role: role)
        case .closeApp(let name): return try closeApp(name)
        case .beginDividerDrag: return try beginDividerDrag()
        case .moveDivider(let x): return try moveDivider(to: x)
        case .endDividerDrag: return try endDividerDrag()
        case .setTraits(let changes): return try setTraits(changes)
        case .setWindowing(let mode): return try setWindowing(mode)
        case .setFrame(let app, let frame): return try setFrame(app, frame)
        case .tile(let app, let position): return try tile(app, position)
        case .raise(let app): return try raise(app)
        case .beginResize(let app): return try beginResize(app)
        case .resizeTo(let app, let size): return try resize(app, to: size)
        case .endResize(let app): return try endResize(app)
        case .connectDisplay(let profile): return try connectDisplay(profile)
        case .disconnectDisplay(let id): return try disconnectDisplay(id)
        case .moveToDisplay(let app, let display): return try moveToDisplay(app, to: display)
        case .restore(let state): return try restore(state)
        case .setKeyboard(let mode): return try setKeyboard(mode)
        case .setSizeRestrictions(let app, let restrictions): return try setSizeRestrictions(app, restrictions)
        case .setBreakpoints(let app, let breakpoints): return try setBreakpoints(app, breakpoints)
        case .setTraitOverrides(let app, let request): return try setTraitOverrides(app, request)
        case .setSupportedOrientations(let app, let orientations): return try setSupportedOrientations(app, orientations)
        case .requestGeometryUpdate(let app, let request): return try requestGeometryUpdate(app, request)
        }
    }

    // MARK: Internals

    /// Every command but a rotation and a settings change waits for a divider drag or a live resize to end.
    func refuseDuringDrag() throws(ModelError) {
        if drag != nil { throw .dragging("the divider is being dragged; end the drag with EndDividerDrag first") }
        try refuseDuringResize()
    }

    func refuseDuringResize() throws(ModelError) {
        if let app = resizing {
            throw .dragging("window '\(app)' is being resized; end the resize with its EndResize first")
        }
    }

    // MARK: Internals

    /// The open apps in display order: primary, secondary (or Slide Over), pip; free-form windows in the order
    /// they opened, then pip (`stacking` says which is in front).
    static func ordered(_ state: DisplayState) -> [DisplayState.App] {
        // Every property read asks for this order: a switch, not a dictionary made on each call.
        func rank(_ role: Role) -> Int {
            switch role {
            case .primary: 0
            case .secondary, .slideOver, .window: 1
            case .pip: 2
            }
        }
        return state.apps.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element.role), rank(b.element.role))
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }
}
