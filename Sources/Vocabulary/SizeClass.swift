/// A UIKit size class: how much room a window has along one axis, in broad terms.
public enum SizeClass: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case compact
    case regular

    /// The narrowest window width that is horizontally regular wherever no table decides (a free-form window,
    /// a layout solved at a bare size): 678 pt, the narrowest regular split width in the iPad tables (the 12.9"
    /// split-half), while 639 pt and below are compact there. Any value from 640 to 678 agrees with every table;
    /// the largest keeps a window regular only where a table already showed it regular.
    public static let narrowestRegularWidth = 678.0

    /// `regular` at and above `threshold`, `compact` below.
    public static func horizontal(width: Double, threshold: Double = narrowestRegularWidth) -> SizeClass {
        width >= threshold ? .regular : .compact
    }

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
