/// One mode a window was in, as coverage counts it (`traitctl coverage`, `scenario run --coverage`, `pytest
/// --traitd-coverage`): the device's class, the orientation, where the window was (an arrangement's slot, a
/// free-form width band, Picture in Picture or a monitor), its size classes and the display-wide settings that
/// differ from the defaults. Each dimension's values are few, so what a run never drove can be listed.
public struct DrivenMode: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var deviceClass: DeviceClass
    public var landscape: Bool
    public var placement: Placement
    public var horizontal: SizeClass
    public var vertical: SizeClass
    /// The settings that differ from their defaults, as `SettingValue`s, sorted.
    public var settings: [SettingValue]

    public init(deviceClass: DeviceClass, landscape: Bool, placement: Placement, horizontal: SizeClass,
                vertical: SizeClass, settings: [SettingValue]) {
        self.deviceClass = deviceClass
        self.landscape = landscape
        self.placement = placement
        self.horizontal = horizontal
        self.vertical = vertical
        self.settings = settings.sorted()
    }

    /// The mode as words, as `Coverage` sends it and `traitctl coverage --json` writes it: device class,
    /// orientation, placement, horizontal and vertical size class; the settings (`WORD=VALUE`) apart.
    public var words: [String] {
        [deviceClass.rawValue, orientation, placement.rawValue, horizontal.rawValue, vertical.rawValue]
    }

    /// A mode from `words` and its settings; throws a sentence naming the first word that is not one.
    public init(words: [String], settings: [String]) throws(UnknownWord) {
        guard words.count == 5 else { throw UnknownWord("a mode is 5 words (device class, orientation, placement, size classes), not \(words.count)") }
        func known<T: RawRepresentable<String> & CaseIterable>(_ word: String, _ what: String) throws(UnknownWord) -> T {
            guard let value = T(rawValue: word) else {
                throw UnknownWord("unknown \(what) '\(word)'; expected one of: " + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }
        guard ["portrait", "landscape"].contains(words[1]) else { throw UnknownWord("unknown orientation '\(words[1])'; expected portrait or landscape") }
        self.init(deviceClass: try known(words[0], "device class"), landscape: words[1] == "landscape",
                  placement: try known(words[2], "placement"), horizontal: try known(words[3], "size class"),
                  vertical: try known(words[4], "size class"),
                  settings: try settings.map { text throws(UnknownWord) in
                      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                      guard parts.count == 2 else { throw UnknownWord("a setting is WORD=VALUE, not '\(text)'") }
                      return SettingValue(word: parts[0], value: parts[1])
                  })
    }

    public struct UnknownWord: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public var orientation: String { landscape ? "landscape" : "portrait" }
    /// `compact x regular`: horizontal, then vertical.
    public var sizeClasses: String { "\(horizontal) x \(vertical)" }
    public var settingsText: String { settings.isEmpty ? "default" : settings.map(\.description).joined(separator: " ") }
    public var description: String { "\(deviceClass) \(orientation) \(placement) \(sizeClasses) \(settingsText)" }

    public static func < (a: Self, b: Self) -> Bool {
        (a.deviceClass, a.orientation, a.placement, a.sizeClasses, a.settingsText)
            < (b.deviceClass, b.orientation, b.placement, b.sizeClasses, b.settingsText)
    }

    /// The classes of device coverage tells apart: phones whose landscape window is regular-width (Plus and
    /// Max models) from the others, and iPads by their screen's short side (mini below 768 pt, 13" from 1024).
    public enum DeviceClass: String, Sendable, CaseIterable, Comparable, CustomStringConvertible {
        case phone, phoneMax = "phone-max", padMini = "pad-mini", pad, pad13 = "pad-13"
        public var description: String { rawValue }
        public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// Where the window was: a Split View or Slide Over slot (its width is the slot's), Picture in Picture, a
    /// free-form or dragged width by its share of the screen, or an external monitor.
    public enum Placement: String, Sendable, CaseIterable, Comparable, CustomStringConvertible {
        case full, twoThirds = "two-thirds", half, oneThird = "one-third", slideOver = "slide-over", pip
        case upToThird = "width<=1/3", upToHalf = "width<=1/2", upToTwoThirds = "width<=2/3", wide = "width<full"
        case monitor
        public var description: String { rawValue }
        public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }

        /// The band of a width that matches no slot: its share of the screen's width.
        public static func band(width: Double, screen: Double) -> Placement {
            let share = width / max(screen, 1)
            if share >= 1 - 1e-9 { return .full }
            if share <= 1.0 / 3 + 0.01 { return .upToThird }
            if share <= 0.5 + 0.01 { return .upToHalf }
            if share <= 2.0 / 3 + 0.01 { return .upToTwoThirds }
            return .wide
        }
    }

    /// A display-wide setting away from its default, as coverage counts it: `WORD=VALUE` (`appearance=dark`),
    /// the text size by band (`content-size=smaller`, `larger`, `accessibility`).
    public struct SettingValue: Sendable, Hashable, Comparable, CustomStringConvertible {
        public let word: String
        public let value: String
        public init(word: String, value: String) {
            self.word = word
            self.value = value
        }
        public var description: String { "\(word)=\(value)" }
        public static func < (a: Self, b: Self) -> Bool { a.description < b.description }

        /// Every value coverage can report: each window trait's values other than the default, text sizes by band.
        public static let all: [SettingValue] = DisplayTrait.windowTraits.flatMap { trait in
            trait == .contentSize ? ["smaller", "larger", "accessibility"].map { SettingValue(word: trait.word, value: $0) }
                : trait.values.filter { $0 != trait.defaultValue }.map { SettingValue(word: trait.word, value: $0) }
        }

        /// The values of `traits` away from their defaults.
        public static func of(_ traits: DisplayTraits) -> [SettingValue] {
            DisplayTrait.windowTraits.compactMap { trait in
                let value = traits[trait]
                guard value != trait.defaultValue else { return nil }
                guard trait == .contentSize, let size = ContentSizeCategory(rawValue: value) else {
                    return SettingValue(word: trait.word, value: value)
                }
                let band = size.isAccessibilityCategory ? "accessibility" : size < .large ? "smaller" : "larger"
                return SettingValue(word: trait.word, value: band)
            }
        }
    }

    /// Each dimension's name and the values `modes` never had, for the report of what a run left out.
    public static func neverDriven(_ modes: Set<DrivenMode>) -> [(dimension: String, values: [String])] {
        [("device class", DeviceClass.allCases.map(\.description).filter { c in !modes.contains { $0.deviceClass.rawValue == c } }),
         ("orientation", ["portrait", "landscape"].filter { o in !modes.contains { $0.orientation == o } }),
         ("placement", Placement.allCases.map(\.description).filter { p in !modes.contains { $0.placement.rawValue == p } }),
         ("size classes", SizeClass.allCases.flatMap { h in SizeClass.allCases.map { "\(h) x \($0)" } }
            .filter { pair in !modes.contains { $0.sizeClasses == pair } }),
         ("settings", SettingValue.all.filter { s in !modes.contains { $0.settings.contains(s) } }.map(\.description))]
    }
}
