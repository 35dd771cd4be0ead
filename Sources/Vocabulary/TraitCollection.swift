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
    /// The custom traits the window's app named (`SetTraitOverrides`, UIKit's `UITraitDefinition`), by name, at
    /// their value: the app's override, or the trait's default (`TraitOverrides.applied(to:)`).
    public var custom: [String: CustomTraitValue] = [:]

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
        /// A custom trait the app named (`TraitCollection.custom`), by its name.
        case custom(String)

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
            case .custom(let name): return name
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
            case .custom(let name): return traits.custom[name]?.text ?? ""
            }
        }

        /// Every field, by name (the order in which the traits that change are announced, one by one).
        public static let all: [Field] = ([
            .horizontalSizeClass, .verticalSizeClass, .idiom, .displayScale, .userInterfaceLevel, .displayGamut,
            .activeAppearance, .windowWidthSizeClass, .windowHeightSizeClass,
        ] + DisplayTrait.windowTraits.map(Field.display)).sorted { $0.name < $1.name }
    }

    /// The fields whose values differ from `previous`'s (in `Field.all`'s order), then this collection's custom
    /// traits whose values differ, by name (one the previous collection lacks counts as changed from nothing: a
    /// caller that knows its default puts it there first, as `Plan.steps` does; one this collection lacks is no
    /// longer defined, a `Reset` or the app gone, and has no value to change to).
    public func changes(from previous: TraitCollection) -> [Field] {
        guard self != previous else { return [] }  // most windows of most transitions change size only
        let customNames = custom.keys.sorted()
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
            case .custom(let name): return custom[name] != previous.custom[name]
            }
        } + customNames.filter { custom[$0] != previous.custom[$0] }.map(Field.custom)
    }
}

extension TraitCollection.Field {
    /// The system trait (one of `all`) named `name` (`userInterfaceStyle`), or nil.
    public static func named(_ name: String) -> Self? { byName[name] }
    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The texts the trait takes, in order; nil for the display scale (a number) and a custom trait (any value
    /// of its type).
    public var values: [String]? {
        switch self {
        case .horizontalSizeClass, .verticalSizeClass: return SizeClass.allCases.map(\.rawValue)
        case .idiom: return Idiom.allCases.map(\.rawValue)
        case .userInterfaceLevel: return InterfaceLevel.allCases.map(\.rawValue)
        case .displayGamut: return DisplayGamut.allCases.map(\.rawValue)
        case .activeAppearance: return ActiveAppearance.allCases.map(\.rawValue)
        case .windowWidthSizeClass: return WindowWidthSizeClass.allCases.map(\.rawValue)
        case .windowHeightSizeClass: return WindowHeightSizeClass.allCases.map(\.rawValue)
        case .display(let trait): return trait.values
        case .displayScale, .custom: return nil
        }
    }

    /// The display scales a window may be forced to: Apple's screens have 1, 2 and 3 pixels a point.
    public static let displayScales: ClosedRange<Double> = 1...3

    /// Why `text` cannot be this trait's value, or nil (`SetTraitOverrides`, a loaded state).
    public func problem(with text: String) -> String? {
        if case .custom = self { return nil }
        if self == .displayScale {
            guard let scale = Double(text), Self.displayScales.contains(scale) else {
                return "displayScale is a number from \(Self.displayScales.lowerBound.compact) to \(Self.displayScales.upperBound.compact); got '\(text.prefix(40))'"
            }
            return nil
        }
        guard let values, values.contains(text) else {
            return "unknown \(name) '\(text.prefix(40))'; expected one of: \((values ?? []).joined(separator: ", "))"
        }
        return nil
    }

    /// Sets this system trait of `traits` to `text`; false (and `traits` as it was) when the text is not one of
    /// its values (`problem(with:)`).
    @discardableResult
    public func set(_ text: String, in traits: inout TraitCollection) -> Bool {
        guard problem(with: text) == nil else { return false }
        switch self {
        case .horizontalSizeClass: traits.horizontalSizeClass = SizeClass(rawValue: text)!
        case .verticalSizeClass: traits.verticalSizeClass = SizeClass(rawValue: text)!
        case .idiom: traits.idiom = Idiom(rawValue: text)!
        case .displayScale: traits.displayScale = Double(text)!
        case .userInterfaceLevel: traits.userInterfaceLevel = InterfaceLevel(rawValue: text)!
        case .displayGamut: traits.displayGamut = DisplayGamut(rawValue: text)!
        case .activeAppearance: traits.activeAppearance = ActiveAppearance(rawValue: text)!
        case .windowWidthSizeClass: traits.windowWidthSizeClass = WindowWidthSizeClass(rawValue: text)!
        case .windowHeightSizeClass: traits.windowHeightSizeClass = WindowHeightSizeClass(rawValue: text)!
        case .display(let trait): traits.display[trait] = text
        case .custom: return false
        }
        return true
    }
}
