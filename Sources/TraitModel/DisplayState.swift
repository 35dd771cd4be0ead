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
    /// The display-wide settings: appearance, text size, direction, contrast, legibility, Reduce Motion.
    public var traits: DisplayTraits
    /// Split View, Stage Manager or windowed apps. In a free-form mode every app but Picture in Picture is a
    /// `window` whose frame is in `frames`; `arrangement` is kept for the return to Split View.
    public var windowing: Windowing
    /// The frame of each free-form window, open or in the background (iPadOS remembers a window's size and
    /// place for when it comes back).
    public var frames: [String: Rect]
    /// The free-form windows on the stage, front to back: the first is the key window.
    public var stacking: [String]
    /// The external displays connected, in the order they were.
    public var displays: [ConnectedDisplay]
    /// The display of each free-form window not on the device's own screen (app -> display id).
    public var placement: [String: String]
    /// The software keyboard (`SetKeyboard`): hidden, docked, undocked, split, floating, or a hardware
    /// keyboard's shortcut bar.
    public var keyboard: KeyboardMode = .hidden
    /// What each app declared of its window (`SetSizeRestrictions`, `SetSupportedOrientations`), by app; an app
    /// closed for good takes its declarations with it (`forgetClosedApps`).
    public var declarations: [String: SceneDeclarations] = [:]

    /// How many dismissed apps the display remembers; the oldest is forgotten first.
    public static let maximumBackgroundApps = 8

    public init(device: String, orientation: Orientation, arrangement: Arrangement, apps: [App],
                background: [String] = [], traits: DisplayTraits = DisplayTraits(), windowing: Windowing = .splitView,
                frames: [String: Rect] = [:], stacking: [String] = [], displays: [ConnectedDisplay] = [],
                placement: [String: String] = [:]) {
        self.device = device
        self.orientation = orientation
        self.arrangement = arrangement
        self.apps = apps
        self.background = background
        self.traits = traits
        self.windowing = windowing
        self.frames = frames
        self.stacking = stacking
        self.displays = displays
        self.placement = placement
    }

    private enum CodingKeys: String, CodingKey {
        case device, orientation, arrangement, apps, background, traits, windowing, frames, stacking, displays, placement
        case keyboard, declarations
    }

    /// A state saved before the settings existed has no `traits`, one saved before free-form windows no
    /// `windowing`, `frames` or `stacking`, one saved before the keyboard no `keyboard`: it loads with their defaults (a missing key must never make a user's
    /// file fail to load and be moved aside).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        device = try c.decode(String.self, forKey: .device)
        orientation = try c.decode(Orientation.self, forKey: .orientation)
        arrangement = try c.decode(Arrangement.self, forKey: .arrangement)
        apps = try c.decode([App].self, forKey: .apps)
        background = try c.decodeIfPresent([String].self, forKey: .background) ?? []
        traits = try c.decodeIfPresent(DisplayTraits.self, forKey: .traits) ?? DisplayTraits()
        windowing = try c.decodeIfPresent(Windowing.self, forKey: .windowing) ?? .splitView
        frames = try c.decodeIfPresent([String: Rect].self, forKey: .frames) ?? [:]
        stacking = try c.decodeIfPresent([String].self, forKey: .stacking) ?? []
        displays = try c.decodeIfPresent([ConnectedDisplay].self, forKey: .displays) ?? []
        placement = try c.decodeIfPresent([String: String].self, forKey: .placement) ?? [:]
        keyboard = try c.decodeIfPresent(KeyboardMode.self, forKey: .keyboard) ?? .hidden
        declarations = try c.decodeIfPresent([String: SceneDeclarations].self, forKey: .declarations) ?? [:]
    }

    /// Saves only what differs from a Split View state, so that a file written in Split View reads as before.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(device, forKey: .device)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(arrangement, forKey: .arrangement)
        try c.encode(apps, forKey: .apps)
        try c.encode(background, forKey: .background)
        try c.encode(traits, forKey: .traits)
        if windowing != .splitView { try c.encode(windowing, forKey: .windowing) }
        if !frames.isEmpty { try c.encode(frames, forKey: .frames) }
        if !stacking.isEmpty { try c.encode(stacking, forKey: .stacking) }
        if !displays.isEmpty { try c.encode(displays, forKey: .displays) }
        if !placement.isEmpty { try c.encode(placement, forKey: .placement) }
        if keyboard != .hidden { try c.encode(keyboard, forKey: .keyboard) }
        if !declarations.isEmpty { try c.encode(declarations, forKey: .declarations) }
    }

    public func app(holding role: Role) -> App? { apps.first { $0.role == role } }

    /// Puts `name` last in `background` (the newest), forgetting the oldest past `maximumBackgroundApps`.
    mutating func remember(inBackground name: String) {
        background = (background.filter { $0 != name } + [name]).suffix(Self.maximumBackgroundApps)
    }
    public func app(named name: String) -> App? { apps.first { $0.name == name } }

    /// Puts `app` first in `stacking`: the front window, the key window.
    mutating func bringToFront(_ app: String) {
        stacking.removeAll { $0 == app }
        stacking.insert(app, at: 0)
    }

    /// The display `app`'s window is on: an external display's id, or `ConnectedDisplay.device`.
    public func display(of app: String) -> String { placement[app] ?? ConnectedDisplay.device }
}
