/// The simulated display: a device, its orientation and arrangement, and the apps on it.
///
/// Pure and deterministic: `apply` takes a command and returns the plan of what changed, or throws and
/// changes nothing. `serial` increases by one with every command that changes something, and never otherwise.
public struct Simulation: Sendable {
    public let catalog: DeviceCatalog
    public var settings: TransitionSettings
    public private(set) var state: DisplayState
    public private(set) var windows: [String: WindowGeometry]
    public private(set) var serial: UInt64

    /// At most three apps: primary, secondary and Picture in Picture (`shared/reference/uikit-transitions.md`).
    public static let maximumApps = 3

    public init(catalog: DeviceCatalog, state: DisplayState, settings: TransitionSettings = .init(), serial: UInt64 = 1)
        throws(ModelError)
    {
        self.catalog = catalog
        self.settings = settings
        self.serial = serial
        let profile = try catalog.profile(state.device)
        var state = state
        state.arrangement = state.arrangement.nearest(in: profile.offeredArrangements(state.orientation))
        try Self.check(state)
        self.state = state
        self.windows = Self.layout(state, profile: profile, previous: [:])
    }

    public var profile: DeviceProfile { catalog.profiles[state.device]! }

    public var geometry: DisplayGeometry {
        DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: state.arrangement)
    }

    /// Open apps in display order: primary, secondary, pip.
    public var appNames: [String] { Self.ordered(state.apps).map(\.name) }

    /// Applies a command. On error nothing changes.
    public mutating func apply(_ command: Command) throws(ModelError) -> Plan {
        var next = state
        var turns = 1
        switch command {
        case .setDevice(let id):
            let profile = try catalog.profile(id)
            next.device = id
            next.arrangement = next.arrangement.nearest(in: profile.offeredArrangements(next.orientation))
        case .rotate(let orientation):
            turns = max(1, state.orientation.quarterTurns(to: orientation))
            next.orientation = orientation
            next.arrangement = next.arrangement.nearest(in: profile.offeredArrangements(orientation))
        case .setArrangement(let arrangement):
            let offered = profile.offeredArrangements(state.orientation)
            guard offered.contains(arrangement) else {
                throw .notOffered(
                    "\(profile.id) does not offer \(arrangement.rawValue) in \(state.orientation.rawValue); "
                        + "offered: \(offered.map(\.rawValue).joined(separator: ", "))")
            }
            if arrangement.needsSecondary, state.app(holding: .secondary) == nil {
                throw .missingApp(
                    "\(arrangement.rawValue) needs a second app; open one with OpenApp(name, 'secondary')")
            }
            next.arrangement = arrangement
        case .openApp(let name, let role):
            try AppName.validate(name)
            if state.app(named: name) != nil { throw .appExists("app '\(name)' is already open") }
            let slot: Role = role == .slideOver ? .secondary : role
            if let holder = state.app(holding: slot) {
                throw .roleTaken("app '\(holder.name)' holds the \(slot.rawValue) role; close it first")
            }
            if slot != .primary, state.app(holding: .primary) == nil {
                throw .missingApp("there is no primary app; open one with role 'primary' first")
            }
            next.apps.append(.init(name: name, role: slot))
            if role == .slideOver {
                next.arrangement = .slideOver
            } else if slot == .secondary, next.arrangement == .full {
                // A second app dropped beside a full-screen one takes the narrow side, as on iPadOS.
                next.arrangement = .splitTwoThirds
            }
        case .closeApp(let name):
            guard let app = state.app(named: name) else {
                let open = appNames.isEmpty ? "none" : appNames.joined(separator: ", ")
                throw .noSuchApp("no app '\(name.shortened)' is open; open apps: \(open)")
            }
            next.apps.removeAll { $0.name == name }
            if app.role == .primary, let index = next.apps.firstIndex(where: { $0.role == .secondary }) {
                next.apps[index].role = .primary  // the other side takes the whole screen
            }
            if app.role != .pip { next.arrangement = .full }
        }
        guard next != state else { return Plan(serial: serial, reason: command.reason, displayChanges: [], windows: []) }

        let nextProfile = try catalog.profile(next.device)
        let nextWindows = Self.layout(next, profile: nextProfile, previous: windows)
        let context = TransitionContext(
            reason: command.reason, duration: settings.duration * Double(turns), orientation: next.orientation)
        var plan = Plan(serial: serial + 1, reason: command.reason, displayChanges: [], windows: [])
        if next.device != state.device { plan.displayChanges.formUnion([.device, .scale]) }
        if next.orientation != state.orientation { plan.displayChanges.insert(.orientation) }
        if nextProfile.screenSize(next.orientation) != profile.screenSize(state.orientation) {
            plan.displayChanges.insert(.screenSize)
        }
        if next.arrangement != state.arrangement { plan.displayChanges.insert(.arrangement) }
        if Set(next.apps.map(\.name)) != Set(state.apps.map(\.name)) { plan.displayChanges.insert(.windows) }
        let names = Self.ordered(state.apps).map(\.name) + Self.ordered(next.apps).map(\.name)
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted {
            let before = windows[name]
            let after = nextWindows[name]
            if before != after { plan.windows.append(WindowChange(app: name, before: before, after: after, context: context)) }
        }
        state = next
        windows = nextWindows
        serial += 1
        return plan
    }

    // MARK: Internals

    static func ordered(_ apps: [DisplayState.App]) -> [DisplayState.App] {
        let rank: [Role: Int] = [.primary: 0, .secondary: 1, .slideOver: 1, .pip: 2]
        return apps.sorted { rank[$0.role]! < rank[$1.role]! }
    }

    /// A state the simulation can hold: valid names, one app a slot, a primary under any other app, and a
    /// secondary app for every arrangement but full.
    static func check(_ state: DisplayState) throws(ModelError) {
        guard state.apps.count <= maximumApps else {
            throw .invalidArgument("at most \(maximumApps) apps can be open (primary, secondary, pip)")
        }
        for app in state.apps {
            try AppName.validate(app.name)
            guard app.role != .slideOver else {
                throw .invalidArgument("app '\(app.name)': open a Slide Over app as 'secondary' with arrangement slide-over")
            }
        }
        for role in [Role.primary, .secondary, .pip] where state.apps.filter({ $0.role == role }).count > 1 {
            throw .roleTaken("more than one app has the \(role.rawValue) role")
        }
        if Set(state.apps.map(\.name)).count != state.apps.count { throw .appExists("an app name appears twice") }
        if !state.apps.isEmpty, state.app(holding: .primary) == nil {
            throw .missingApp("apps are open but none is primary")
        }
        if state.arrangement.needsSecondary, state.app(holding: .secondary) == nil {
            throw .missingApp("\(state.arrangement.rawValue) needs a secondary app")
        }
    }

    /// Every window's geometry for `state`. A secondary app in the background (arrangement `full`) keeps the
    /// geometry it last had on screen; one never shown gets the narrow side of a 2/3 split.
    static func layout(_ state: DisplayState, profile: DeviceProfile, previous: [String: WindowGeometry])
        -> [String: WindowGeometry]
    {
        let geometry = DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: state.arrangement)
        var result: [String: WindowGeometry] = [:]
        for app in state.apps {
            switch app.role {
            case .primary:
                let (frame, horizontal) = geometry.primary
                result[app.name] = WindowGeometry(
                    role: .primary, frame: frame, traits: geometry.traits(horizontal: horizontal), state: .active)
            case .secondary, .slideOver:
                if let (frame, horizontal, role) = geometry.secondary {
                    result[app.name] = WindowGeometry(
                        role: role, frame: frame, traits: geometry.traits(horizontal: horizontal), state: .active)
                } else if var kept = previous[app.name] {
                    kept.state = .background
                    kept.role = .secondary
                    result[app.name] = kept
                } else {
                    let offstage = DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: .splitTwoThirds)
                    let (frame, horizontal, _) = offstage.secondary!
                    result[app.name] = WindowGeometry(
                        role: .secondary, frame: frame, traits: offstage.traits(horizontal: horizontal), state: .background)
                }
            case .pip:
                let traits = TraitCollection(
                    horizontalSizeClass: .compact, verticalSizeClass: .compact, idiom: profile.idiom,
                    displayScale: profile.scale)
                result[app.name] = WindowGeometry(role: .pip, frame: geometry.pip, traits: traits, state: .active)
            }
        }
        return result
    }
}
