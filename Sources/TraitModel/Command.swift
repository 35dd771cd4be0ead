/// Something that changes the simulated display. `Simulation.apply` turns one into a `Plan`.
public enum Command: Sendable, Equatable {
    case setDevice(String)
    case rotate(Orientation)
    case setArrangement(Arrangement)
    /// Opens an app in a role: `primary`, `secondary` (a split beside the primary), `slide-over` or `pip`.
    case openApp(String, Role)
    case closeApp(String)
    /// The user touches the Split View divider: both apps resign active until the drag ends.
    case beginDividerDrag
    /// The divider's left edge moves to `x` points from the left of the screen.
    case moveDivider(Double)
    /// The user lets go: the divider snaps to the nearest split, or past the edge dismisses an app.
    case endDividerDrag

    /// The reason a transition this command causes carries in its context.
    public var reason: TransitionReason {
        switch self {
        case .setDevice: return .device
        case .rotate: return .rotation
        case .setArrangement, .openApp, .closeApp: return .arrangement
        case .beginDividerDrag, .endDividerDrag: return .drag
        case .moveDivider: return .snapshot
        }
    }
}

/// Why a window changes size or traits (`reason` in a transition's context).
public enum TransitionReason: String, Sendable, CaseIterable, CustomStringConvertible {
    case rotation, arrangement, device, drag, snapshot

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}

/// The state of the display that commands change; windows follow from it (see `Simulation.windows`).
public struct DisplayState: Sendable, Equatable, Codable {
    /// An open app and the slot it holds: `primary`, `secondary` or `pip`. (A secondary app shows as
    /// `slide-over` while the arrangement is Slide Over.)
    public struct App: Sendable, Equatable, Codable {
        public var name: String
        public var role: Role
        public init(name: String, role: Role) {
            self.name = name
            self.role = role
        }
    }

    public var device: String
    public var orientation: Orientation
    public var arrangement: Arrangement
    public var apps: [App]
    /// Apps dismissed by dragging the divider to the edge, oldest first: not on screen, no window object, but
    /// not terminated either. Opening one again brings it back with `WillEnterForeground`.
    public var background: [String]

    /// How many dismissed apps the display remembers; the oldest is forgotten first.
    public static let maximumBackgroundApps = 8

    public init(device: String, orientation: Orientation, arrangement: Arrangement, apps: [App],
                background: [String] = []) {
        self.device = device
        self.orientation = orientation
        self.arrangement = arrangement
        self.apps = apps
        self.background = background
    }

    public func app(holding role: Role) -> App? { apps.first { $0.role == role } }

    /// Puts `name` last in `background` (the newest), forgetting the oldest past `maximumBackgroundApps`.
    mutating func remember(inBackground name: String) {
        background = (background.filter { $0 != name } + [name]).suffix(Self.maximumBackgroundApps)
    }
    public func app(named name: String) -> App? { apps.first { $0.name == name } }
}

/// How transitions animate.
public struct TransitionSettings: Sendable, Equatable {
    /// Seconds for a 90-degree rotation or a resize; a 180-degree rotation takes twice this.
    public var duration: Double
    public init(duration: Double = 0.3) { self.duration = duration }
}
