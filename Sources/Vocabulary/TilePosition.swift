/// Where `Tile` puts a free-form window: the whole screen, a half or a quarter (iPadOS 26's tiling).
public enum TilePosition: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case full
    case leftHalf = "left-half"
    case rightHalf = "right-half"
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The tile's column and row in a 2 x 2 grid: nil for an axis it spans (`full` spans both, a half spans rows).
    public var cell: (column: Int?, row: Int?) {
        switch self {
        case .full: return (nil, nil)
        case .leftHalf: return (0, nil)
        case .rightHalf: return (1, nil)
        case .topLeft: return (0, 0)
        case .topRight: return (1, 0)
        case .bottomLeft: return (0, 1)
        case .bottomRight: return (1, 1)
        }
    }
}
