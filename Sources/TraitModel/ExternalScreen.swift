import Vocabulary

/// A monitor the iPad drives (`ConnectDisplay`): its resolution in pixels and its scale; its size in points is
/// the one divided by the other, as for the device's own screen. The profiles are the common monitors the
/// issue names (a 1080p monitor at 1x, a 1440p and a 4K one at 2x); a new one is one line of `profiles`.
public struct ExternalScreen: Sendable, Hashable {
    public let profile: String
    public let pixels: Size
    public let scale: Double

    public init(profile: String, pixels: Size, scale: Double) {
        self.profile = profile
        self.pixels = pixels
        self.scale = scale
    }

    /// The screen in points: what windows on it are laid out in.
    public var size: Size { Size(width: pixels.width / scale, height: pixels.height / scale) }

    /// An external monitor has no status bar, sensor housing or home indicator: no safe-area insets. Its
    /// colour gamut is not known; windows on it say sRGB, the lowest any monitor has.
    public static let gamut = DisplayGamut.srgb

    public static let profiles: [ExternalScreen] = [
        ExternalScreen(profile: "external-1080p", pixels: Size(width: 1920, height: 1080), scale: 1),
        ExternalScreen(profile: "external-1440p", pixels: Size(width: 2560, height: 1440), scale: 2),
        ExternalScreen(profile: "external-4k", pixels: Size(width: 3840, height: 2160), scale: 2),
    ]

    public static var names: String { profiles.map(\.profile).joined(separator: ", ") }

    public static func named(_ profile: String) throws(ModelError) -> ExternalScreen {
        guard let screen = profiles.first(where: { $0.profile == profile }) else {
            throw .invalidArgument("unknown display profile '\(profile.shortened)'; expected one of: \(names)")
        }
        return screen
    }
}

/// A connected external display: its id on the bus (`external-1`) and its profile.
public struct ConnectedDisplay: Sendable, Hashable, Codable {
    public var id: String
    public var profile: String
    public init(id: String, profile: String) {
        self.id = id
        self.profile = profile
    }

    /// The id of the device's own screen, in `MoveToDisplay` and a window's `Display`.
    public static let device = "device"
    /// An iPad drives one external display (Stage Manager's); connecting a second is refused.
    public static let maximum = 1
}
