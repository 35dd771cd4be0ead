/// Why a window changes size or traits (`reason` in a transition's context).
public enum TransitionReason: String, Sendable, CaseIterable, CustomStringConvertible {
    case rotation, arrangement, device, drag, snapshot
    /// A display-wide setting changed (`SetTraits`): appearance, text size, direction, contrast, legibility.
    case traits

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
