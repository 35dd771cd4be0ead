import Vocabulary
import TraitProtocol

/// Free-form windows: the windowing mode and the commands of a window object (`SetFrame`, `Tile`, `Raise`, a
/// live resize). Each returns the transitions it started, as the display's commands do.
extension TraitClient {
    private typealias W = Layout1.Window

    /// Split View, Stage Manager or windowed apps; the open apps are rearranged in one transition.
    @discardableResult
    public func setWindowing(_ mode: Windowing) async throws -> [UInt64] {
        try await call(Layout1.Display.setWindowing, mode)
    }

    /// Shows, hides or moves the software keyboard (`NotOffered` for a mode the device lacks); returns the
    /// transitions it started, one per visible window on the device's screen.
    public func setKeyboard(_ mode: KeyboardMode) async throws -> [UInt64] {
        try await call(Layout1.Display.setKeyboard, mode)
    }

    /// Moves and sizes `app`'s free-form window (`OutOfRange` below the minimum size or off the screen).
    @discardableResult
    public func setFrame(_ frame: Rect, of app: String) async throws -> [UInt64] {
        try await call(W.setFrame, frame, window: app)
    }

    /// Declares `app`'s window's smallest and largest size (this connection must have registered an adapter for
    /// it: `AccessDenied` otherwise).
    public func setSizeRestrictions(of app: String, minimum: Size, maximum: Size) async throws -> [UInt64] {
        try await call(W.setSizeRestrictions, (minimum, maximum), window: app)
    }

    /// Declares `app`'s breakpoints, name -> condition in libadwaita's syntax (`max-width: 550sp`), in place of
    /// those it had; an adapter's connection only. `InvalidArgs` names a condition that is none, and where.
    @discardableResult
    public func setBreakpoints(of app: String, _ breakpoints: [String: String]) async throws -> [UInt64] {
        try await call(W.setBreakpoints, breakpoints, window: app)
    }

    /// Overrides `app`'s window's traits, in place of the overrides it had (`TraitOverrideRequest`: system traits
    /// by their key in `Traits`, custom traits by a name with a dot, with their defaults); an adapter's
    /// connection only.
    @discardableResult
    public func setTraitOverrides(of app: String, _ overrides: TraitOverrideRequest) async throws -> [UInt64] {
        try await call(W.setTraitOverrides, overrides, window: app)
    }

    /// Declares the orientations `app` supports (none: all); an adapter's connection only.
    public func setSupportedOrientations(of app: String, _ orientations: [Orientation]) async throws -> [UInt64] {
        try await call(W.setSupportedOrientations, orientations, window: app)
    }

    /// Asks for orientations, or a free-form window's size and origin (`GeometryRequestDenied`,
    /// `GeometryRequestUnsupported` as UIKit refuses); an adapter's connection only.
    public func requestGeometryUpdate(of app: String, _ request: GeometryRequest) async throws -> [UInt64] {
        try await call(W.requestGeometryUpdate, request, window: app)
    }

    /// Puts `app`'s free-form window in a tile.
    @discardableResult
    public func tile(_ app: String, _ position: TilePosition) async throws -> [UInt64] {
        try await call(W.tile, position, window: app)
    }

    /// Why `app`'s window is what it is: (topic, sentence) pairs (`Explain`).
    public func explain(_ app: String) async throws -> [Explanation] { try await call(W.explain, (), window: app) }

    /// Brings `app`'s free-form window to the front.
    @discardableResult
    public func raise(_ app: String) async throws -> [UInt64] { try await call(W.raise, (), window: app) }

    /// Takes `app`'s window corner: it is inactive until ``endResize(_:)``.
    @discardableResult
    public func beginResize(_ app: String) async throws -> [UInt64] { try await call(W.beginResize, (), window: app) }

    /// One step of a live resize; a step that waits for the window's open transition replies with no id.
    @discardableResult
    public func resize(_ app: String, to size: Size) async throws -> [UInt64] {
        try await call(W.resizeTo, size, window: app)
    }

    /// Lets go of the corner: the waiting step, if any, is applied, and the window becomes active.
    @discardableResult
    public func endResize(_ app: String) async throws -> [UInt64] { try await call(W.endResize, (), window: app) }

    /// Plugs in an external monitor (`external-1080p`, `external-1440p`, `external-4k`); returns its id.
    public func connectDisplay(_ profile: String) async throws -> String {
        try await call(Layout1.Display.connectDisplay, profile)
    }

    /// Unplugs an external monitor: its windows come back to the device's screen.
    @discardableResult
    public func disconnectDisplay(_ id: String) async throws -> [UInt64] {
        try await call(Layout1.Display.disconnectDisplay, id)
    }

    /// Moves `app`'s free-form window to `display` (`device` or an external display's id).
    @discardableResult
    public func move(_ app: String, toDisplay display: String) async throws -> [UInt64] {
        try await call(W.moveToDisplay, display, window: app)
    }
}
