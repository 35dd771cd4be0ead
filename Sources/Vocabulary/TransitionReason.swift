/// Why a window changes size or traits (`reason` in a transition's context).
public enum TransitionReason: String, Sendable, CaseIterable, CustomStringConvertible {
    case rotation, arrangement, device, drag, snapshot

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
