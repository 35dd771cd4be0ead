/// The traits a window publishes, as `UITraitCollection`: size classes, idiom and display scale, the interface
/// level and display gamut, and the display-wide settings that are traits (`DisplayTrait.windowTraits`).
public struct TraitCollection: Sendable, Hashable, Codable {
    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass
    public var idiom: Idiom
    public var displayScale: Double
    /// `elevated` for a window that floats above another app (see `InterfaceLevel`), else `base`.
    public var userInterfaceLevel: InterfaceLevel
    /// The screen's colour gamut, from the device profile.
    public var displayGamut: DisplayGamut
    /// Appearance, text size, direction, contrast, legibility: the display's, the same in every window. Holds only
    /// the window traits (`DisplayTraits.windowTraits`), so that a setting that is not a trait (Reduce Motion)
    /// never counts as a trait change.
    public var display: DisplayTraits

    public init(horizontalSizeClass: SizeClass, verticalSizeClass: SizeClass, idiom: Idiom, displayScale: Double,
                userInterfaceLevel: InterfaceLevel = .base, displayGamut: DisplayGamut = .srgb,
                display: DisplayTraits = DisplayTraits()) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.idiom = idiom
        self.displayScale = displayScale
        self.userInterfaceLevel = userInterfaceLevel
        self.displayGamut = displayGamut
        self.display = display.windowTraits
    }
}

/// `UIUserInterfaceLevel`. Apple makes alerts and popovers `elevated`; traitd's rule (no source says what Slide
/// Over or Picture in Picture get): a window floating above another app, Slide Over and Picture in Picture, is
/// `elevated`; full-screen and Split View windows are `base`.
public enum InterfaceLevel: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case base
    case elevated
    public var description: String { rawValue }
}

/// `UIDisplayGamut`: the colours the screen shows. Device profiles say which (`display-gamut`).
public enum DisplayGamut: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case srgb
    case p3
    public var description: String { rawValue }
}
