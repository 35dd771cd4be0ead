/// Something that changes the simulated display. `Simulation.apply` turns one into a `Plan`.
public enum Command: Sendable, Equatable {
    case setDevice(String)
    case rotate(Orientation)
    case setArrangement(Arrangement)
    /// Opens an app in a role: `primary`, `secondary` (a split beside the primary), `slide-over` or `pip`.
    case openApp(String, Role)
    case closeApp(String)

    /// The reason a transition this command causes carries in its context.
    public var reason: TransitionReason {
        switch self {
        case .setDevice: return .device
        case .rotate: return .rotation
        case .setArrangement, .openApp, .closeApp: return .arrangement
        }
    }
}

/// Why a window changes size or traits (`reason` in a transition's context).
public enum TransitionReason: String, Sendable, CaseIterable {
    case rotation, arrangement, device, drag, snapshot
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

    public init(device: String, orientation: Orientation, arrangement: Arrangement, apps: [App]) {
        self.device = device
        self.orientation = orientation
        self.arrangement = arrangement
        self.apps = apps
    }

    public func app(holding role: Role) -> App? { apps.first { $0.role == role } }
    public func app(named name: String) -> App? { apps.first { $0.name == name } }
}

/// How transitions animate.
public struct TransitionSettings: Sendable, Equatable {
    /// Seconds for a 90-degree rotation or a resize; a 180-degree rotation takes twice this.
    public var duration: Double
    public init(duration: Double = 0.3) { self.duration = duration }
}
