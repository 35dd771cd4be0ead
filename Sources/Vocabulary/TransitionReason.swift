/// Why a window changes size or traits (`reason` in a transition's context).
public enum TransitionReason: String, Sendable, CaseIterable, CustomStringConvertible {
    case rotation, arrangement, device, drag, snapshot
    /// A display-wide setting changed (`SetTraits`): appearance, text size, direction, contrast, legibility.
    case traits
    /// The windowing mode changed (`SetWindowing`): windows leave or take the arrangements' frames.
    case windowing
    /// A free-form window's frame changed: `SetFrame`, `Tile`, or a step of a live resize.
    case resize
    /// A window moved to another screen, or its screen was disconnected.
    case display
    /// The simulation was set back to a saved state: `Reset` or `RestoreSnapshot` (`org.traitd.Layout1.Testing`).
    case reset
    /// The software keyboard changed (`SetKeyboard`): the windows' keyboard layout guide moves.
    case keyboard

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
