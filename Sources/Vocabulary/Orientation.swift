/// The simulated device's orientation. Not a trait (as in UIKit): it travels in each transition's context.
public enum Orientation: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case portrait
    case portraitUpsideDown = "portrait-upside-down"
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }

    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    /// Quarter turns from `self` to `other` (0, 1 or 2): a 180-degree rotation animates twice as long.
    public func quarterTurns(to other: Orientation) -> Int {
        if self == other { return 0 }
        return isLandscape == other.isLandscape ? 2 : 1
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
