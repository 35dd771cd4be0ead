import Vocabulary

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
