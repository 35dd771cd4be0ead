/// A UIKit size class: how much room a window has along one axis, in broad terms.
public enum SizeClass: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case compact
    case regular

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
