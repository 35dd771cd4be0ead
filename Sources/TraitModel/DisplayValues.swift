import Vocabulary

/// The display as its properties publish it (the values, not the names: `DisplayProperty`), at one moment: after
/// a command, or after one stage of a command that runs several (a divider move across snap points).
///
/// Each `Plan` carries the snapshot of its own stage, so that every stage publishes its own `Serial`, divider
/// position and arrangement before its transitions complete, and the last stage the final state. The daemon's
/// properties, `GetState` and the per-stage `PropertiesChanged` all encode this one value.
public struct DisplayValues: Sendable, Equatable {
    public var serial: UInt64
    public var state: DisplayState
    /// The screen in the current orientation, in points.
    public var screen: Size
    public var scale: Double
    /// The open apps in display order (primary, secondary, pip): their windows.
    public var apps: [String]
    /// The divider's left edge (0 without a split).
    public var dividerPosition: Double
    public var dragging: Bool
    /// Every app not on screen, in the model's one meaning of background (`Simulation.backgroundApps`).
    public var backgroundApps: [String]
    /// The windows on screen, front to back (`Simulation.stacking`).
    public var stacking: [String]
    /// The display-wide settings (`state.traits`).
    public var traits: DisplayTraits { state.traits }
    /// The external displays connected (`state.displays`).
    public var displays: [ConnectedDisplay] { state.displays }
    /// The software keyboard's mode (`state.keyboard`).
    public var keyboard: KeyboardMode { state.keyboard }
    /// Its frame on the device's screen, in screen coordinates; nil when hidden.
    public var keyboardFrame: Rect?

    public init(serial: UInt64, state: DisplayState, screen: Size, scale: Double, apps: [String],
                dividerPosition: Double, dragging: Bool, backgroundApps: [String], stacking: [String] = [],
                keyboardFrame: Rect? = nil) {
        self.keyboardFrame = keyboardFrame
        self.serial = serial
        self.state = state
        self.screen = screen
        self.scale = scale
        self.apps = apps
        self.dividerPosition = dividerPosition
        self.dragging = dragging
        self.backgroundApps = backgroundApps
        self.stacking = stacking
    }
}

extension Simulation {
    /// The display now.
    public var display: DisplayValues {
        let apps = appNames
        return DisplayValues(
            serial: serial, state: state, screen: geometry.screen, scale: profile.scale, apps: apps,
            dividerPosition: dividerPosition, dragging: drag != nil, backgroundApps: backgroundApps(of: apps),
            stacking: stacking(of: apps), keyboardFrame: keyboardFrame)
    }
}
