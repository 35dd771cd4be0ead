import Vocabulary

/// How transitions animate.
public struct TransitionSettings: Sendable, Equatable {
    /// Seconds for a 90-degree rotation or a resize; a 180-degree rotation takes twice this.
    public var duration: Double
    public init(duration: Double = 0.3) { self.duration = duration }
}
