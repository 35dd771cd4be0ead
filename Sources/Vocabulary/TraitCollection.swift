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
    /// Whether the window looks frontmost (`UIUserInterfaceActiveAppearance`, see `ActiveAppearance`).
    public var activeAppearance: ActiveAppearance
    /// Android's window size classes of the window's size, one point a dp (`WindowWidthSizeClass`): set from
    /// its frame wherever the frame is decided (`Simulation.layout`).
    public var windowWidthSizeClass: WindowWidthSizeClass = .compact
    public var windowHeightSizeClass: WindowHeightSizeClass = .compact
    /// Appearance, text size, direction, contrast, legibility: the display's, the same in every window. Holds only
    /// the window traits (`DisplayTraits.windowTraits`), so that a setting that is not a trait (Reduce Motion)
    /// never counts as a trait change.
    public var display: DisplayTraits

    public init(horizontalSizeClass: SizeClass, verticalSizeClass: SizeClass, idiom: Idiom, displayScale: Double,
                userInterfaceLevel: InterfaceLevel = .base, displayGamut: DisplayGamut = .srgb,
                activeAppearance: ActiveAppearance = .active, display: DisplayTraits = DisplayTraits()) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.idiom = idiom
        self.displayScale = displayScale
        self.userInterfaceLevel = userInterfaceLevel
        self.displayGamut = displayGamut
        self.activeAppearance = activeAppearance
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

/// `UIUserInterfaceActiveAppearance` (iOS 14): whether a window looks frontmost, which is not its lifecycle
/// state. traitd's rule (docs/reference: iPadOS 26 tracks the frontmost window; Apple says nothing of Split
/// View): in Stage Manager and windowed apps the front window of each screen is `active` and the other visible
/// windows `inactive`; in Split View, Slide Over and full screen every visible window is `active`, and so is
/// Picture in Picture. An app in the background keeps what it last had.
public enum ActiveAppearance: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case active
    case inactive
    public var description: String { rawValue }
}

/// `UIDisplayGamut`: the colours the screen shows. Device profiles say which (`display-gamut`).
public enum DisplayGamut: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case srgb
    case p3
    public var description: String { rawValue }
}

extension TraitCollection {
    /// One trait of a collection, as `registerForTraitChanges(_:)` names them one by one: what a `TraitDidChange`
    /// is about.
    public enum Field: Sendable, Hashable {
        case horizontalSizeClass, verticalSizeClass, idiom, displayScale, userInterfaceLevel, displayGamut, activeAppearance
        /// Android's window size classes (`WindowWidthSizeClass`, `WindowHeightSizeClass`).
        case windowWidthSizeClass, windowHeightSizeClass
        /// A display-wide setting that is a window trait (`DisplayTrait.isWindowTrait`).
        case display(DisplayTrait)

        /// UITraitCollection's name for it: its key in a window's `Traits` and in `TraitDidChange`.
        public var name: String {
            switch self {
            case .horizontalSizeClass: return "horizontalSizeClass"
            case .verticalSizeClass: return "verticalSizeClass"
            case .idiom: return "idiom"
            case .displayScale: return "displayScale"
            case .userInterfaceLevel: return "userInterfaceLevel"
            case .displayGamut: return "displayGamut"
            case .activeAppearance: return "activeAppearance"
            case .windowWidthSizeClass: return "windowWidthSizeClass"
            case .windowHeightSizeClass: return "windowHeightSizeClass"
            case .display(let trait): return trait.key
            }
        }

        /// Its value in `traits`, as a person reads it (`compact`, `2`, `dark`).
        public func text(in traits: TraitCollection) -> String {
            switch self {
            case .horizontalSizeClass: return traits.horizontalSizeClass.rawValue
            case .verticalSizeClass: return traits.verticalSizeClass.rawValue
            case .idiom: return traits.idiom.rawValue
            case .displayScale: return traits.displayScale.compact
            case .userInterfaceLevel: return traits.userInterfaceLevel.rawValue
            case .displayGamut: return traits.displayGamut.rawValue
            case .activeAppearance: return traits.activeAppearance.rawValue
            case .windowWidthSizeClass: return traits.windowWidthSizeClass.rawValue
            case .windowHeightSizeClass: return traits.windowHeightSizeClass.rawValue
            case .display(let trait): return traits.display[trait]
            }
        }

        /// Every field, by name (the order in which the traits that change are announced, one by one).
        public static let all: [Field] = ([
            .horizontalSizeClass, .verticalSizeClass, .idiom, .displayScale, .userInterfaceLevel, .displayGamut,
            .activeAppearance, .windowWidthSizeClass, .windowHeightSizeClass,
        ] + DisplayTrait.windowTraits.map(Field.display)).sorted { $0.name < $1.name }
    }

    /// The fields whose values differ from `previous`'s (in `Field.all`'s order).
    public func changes(from previous: TraitCollection) -> [Field] {
        guard self != previous else { return [] }  // most windows of most transitions change size only
        return Field.all.filter { field in
            switch field {
            case .horizontalSizeClass: return horizontalSizeClass != previous.horizontalSizeClass
            case .verticalSizeClass: return verticalSizeClass != previous.verticalSizeClass
            case .idiom: return idiom != previous.idiom
            case .displayScale: return displayScale != previous.displayScale
            case .userInterfaceLevel: return userInterfaceLevel != previous.userInterfaceLevel
            case .displayGamut: return displayGamut != previous.displayGamut
            case .activeAppearance: return activeAppearance != previous.activeAppearance
            case .windowWidthSizeClass: return windowWidthSizeClass != previous.windowWidthSizeClass
            case .windowHeightSizeClass: return windowHeightSizeClass != previous.windowHeightSizeClass
            case .display(let trait): return display[trait] != previous.display[trait]
            }
        }
    }
}
