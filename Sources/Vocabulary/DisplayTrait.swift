/// A display-wide setting the user changes and every app sees: dark mode, the text size, the layout direction,
/// Increase Contrast, Bold Text, Reduce Motion.
///
/// **The one table of them is `DisplayTrait.all`.** Everything else reads it: the model's state and its saved
/// form (`DisplayTraits`, by `word`), the Display properties and `SetTraits` (`property`), a window's `Traits`
/// record and the transition context (`key`), `traitctl set/get` and the config file's `traits:` section
/// (`word`), and the layout language's section conditions (`conditions`). Adding a trait is one entry here
/// (and, where it changes behaviour, the code that reads it, through a typed accessor below).
///
/// Values are the names simctl uses where it has one (`shared/reference/uikit-transitions.md`, "How test
/// scripts change these", copied into `docs/reference/traits.md`). A flag's values are `off` and `on`; on the
/// bus it is a boolean.
public struct DisplayTrait: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The word of `traitctl set WORD`, of the config's `traits:` section and of the state file: `appearance`.
    public let word: String
    /// The Display property and `SetTraits` key: `Appearance`.
    public let property: String
    /// The key in a window's `Traits` and in the transition context: `userInterfaceStyle` (UITraitCollection's
    /// name).
    public let key: String
    /// Whether it is one of a window's traits (in `Traits`, and a change of it is a trait transition). Reduce
    /// Motion is not a UITraitCollection trait (`UIAccessibility.isReduceMotionEnabled`): it is published on the
    /// display and in the transition context, and changes no window's traits.
    public let isWindowTrait: Bool
    /// The values accepted, in order (for an ordered trait, smallest first).
    public let values: [String]
    public let defaultValue: String
    /// On the bus a boolean (`values` are `off`, `on`), else a string.
    public let isFlag: Bool
    /// The values compare in `values`' order (`content-size >= large` in a layout, `increment` in traitctl).
    public let isOrdered: Bool
    /// Layout section conditions: a word that holds when the trait has the value (`dark` -> `dark`).
    public let conditions: [String: String]
    /// One line for the XML, the man page and `--help`.
    public let summary: String

    public var id: String { word }
    public var description: String { word }

    /// A trait is its word: the table holds one entry per word. (The synthesized versions compared and hashed
    /// every field, value lists and conditions included: hashing sets of display properties by them was 1 % of a
    /// transition's instructions.)
    public static func == (a: DisplayTrait, b: DisplayTrait) -> Bool { a.word == b.word }
    public func hash(into hasher: inout Hasher) { hasher.combine(word) }

    /// Whether `value` is one of `values`.
    public func accepts(_ value: String) -> Bool { values.contains(value) }

    /// The value a person typed (`traitctl set`, the config file), or nil: a value of `values`, or for a flag
    /// also `true`/`false`, `yes`/`no`, `enabled`/`disabled` (simctl's words) and `1`/`0`.
    public func value(typed text: String) -> String? {
        if accepts(text) { return text }
        guard isFlag else { return nil }
        switch text.lowercased() {
        case "on", "true", "yes", "enabled", "1": return "on"
        case "off", "false", "no", "disabled", "0": return "off"
        default: return nil
        }
    }

    /// `light, dark`: what a refusal lists.
    public var valueList: String { values.joined(separator: ", ") }

    /// The trait whose `property` is `name` (`Appearance`).
    public static func withProperty(_ name: String) -> DisplayTrait? { all.first { $0.property == name } }
    /// The trait whose `word` is `word` (`appearance`).
    public static func withWord(_ word: String) -> DisplayTrait? { all.first { $0.word == word } }

    /// Every property name, for a refusal of an unknown `SetTraits` key.
    public static var propertyList: String { all.map(\.property).joined(separator: ", ") }
    /// Every word, for traitctl and the config.
    public static var wordList: String { all.map(\.word).joined(separator: ", ") }
}

extension DisplayTrait {
    public static let appearance = DisplayTrait(
        word: "appearance", property: "Appearance", key: "userInterfaceStyle", isWindowTrait: true,
        values: ["light", "dark"], defaultValue: "light", isFlag: false, isOrdered: false,
        conditions: ["light": "light", "dark": "dark"],
        summary: "light or dark (UIUserInterfaceStyle; simctl ui appearance).")
    public static let contentSize = DisplayTrait(
        word: "content-size", property: "ContentSizeCategory", key: "preferredContentSizeCategory", isWindowTrait: true,
        values: ContentSizeCategory.allCases.map(\.rawValue), defaultValue: ContentSizeCategory.large.rawValue,
        isFlag: false, isOrdered: true, conditions: [:],
        summary: "The Dynamic Type text size, extra-small to accessibility-extra-extra-extra-large (simctl ui content_size).")
    public static let direction = DisplayTrait(
        word: "direction", property: "LayoutDirection", key: "layoutDirection", isWindowTrait: true,
        values: ["left-to-right", "right-to-left"], defaultValue: "left-to-right", isFlag: false, isOrdered: false,
        conditions: ["left-to-right": "left-to-right", "right-to-left": "right-to-left"],
        summary: "left-to-right or right-to-left: leading and trailing follow it (UITraitEnvironmentLayoutDirection).")
    public static let contrast = DisplayTrait(
        word: "contrast", property: "Contrast", key: "accessibilityContrast", isWindowTrait: true,
        values: ["normal", "high"], defaultValue: "normal", isFlag: false, isOrdered: false,
        conditions: ["high-contrast": "high"],
        summary: "normal or high: Increase Contrast (UIAccessibilityContrast; simctl ui increase_contrast).")
    public static let legibility = DisplayTrait(
        word: "legibility", property: "LegibilityWeight", key: "legibilityWeight", isWindowTrait: true,
        values: ["regular", "bold"], defaultValue: "regular", isFlag: false, isOrdered: false,
        conditions: ["bold-text": "bold"],
        summary: "regular or bold: the Bold Text setting (UILegibilityWeight).")
    public static let reduceMotion = DisplayTrait(
        word: "reduce-motion", property: "ReduceMotion", key: "reduceMotion", isWindowTrait: false,
        values: ["off", "on"], defaultValue: "off", isFlag: true, isOrdered: false, conditions: [:],
        summary: "Reduce Motion (UIAccessibility.isReduceMotionEnabled): transitions then last 0 s.")

    /// The table: every display-wide setting, in the order they are listed everywhere.
    public static let all: [DisplayTrait] = [appearance, contentSize, direction, contrast, legibility, reduceMotion]

    /// The traits that are a window's (in `Traits`), in table order.
    public static let windowTraits: [DisplayTrait] = all.filter(\.isWindowTrait)
}

/// The value of every display-wide setting (`DisplayTrait`): what the display holds, what a command changes and
/// what the state file keeps, by word. A trait not set has its default, so a state file written before a trait
/// existed loads with the trait at its default.
public struct DisplayTraits: Sendable, Hashable, Codable, CustomStringConvertible {
    private var values: [String: String]

    /// Every trait at its default.
    public init() { values = [:] }

    /// The traits given, by trait; the others at their defaults. Values are not checked (`DisplayTrait.accepts`).
    public init(_ values: [DisplayTrait: String]) {
        self.values = [:]
        for (trait, value) in values { self[trait] = value }
    }

    public subscript(trait: DisplayTrait) -> String {
        get { values[trait.word] ?? trait.defaultValue }
        set { values[trait.word] = newValue == trait.defaultValue ? nil : newValue }
    }

    /// Only the window traits (`DisplayTrait.isWindowTrait`): what a window's trait collection holds.
    public var windowTraits: DisplayTraits {
        // Every window's trait collection is made from it on every layout: drop the few others rather than copy
        // the window traits one by one (a trait at its default is not stored).
        var result = self
        for trait in DisplayTrait.all where !trait.isWindowTrait { result.values[trait.word] = nil }
        return result
    }

    /// The traits whose value differs from `other`'s, in table order.
    public func differences(from other: DisplayTraits) -> [DisplayTrait] {
        DisplayTrait.all.filter { self[$0] != other[$0] }
    }

    /// `appearance dark, content-size large, ...`: every trait, in table order.
    public var description: String {
        DisplayTrait.all.map { "\($0.word) \(self[$0])" }.joined(separator: ", ")
    }

    /// Saved by word, only the traits not at their default. A word no trait has, or a value its trait does not
    /// accept, can only come from a later version (one with another setting, or another value of one): it is
    /// dropped, so that a file a later traitd wrote still loads, and, when the decoder's `userInfo` holds a
    /// `DroppedSettings`, named there for the log.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Word.self)
        let dropped = decoder.userInfo[DroppedSettings.key] as? DroppedSettings
        values = [:]
        for key in container.allKeys {
            let value = try container.decode(String.self, forKey: key)
            let field = (decoder.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            guard let trait = DisplayTrait.withWord(key.stringValue) else {
                dropped?.add(field, "a setting of \(DisplayTrait.all.map(\.word).joined(separator: ", ")); got '\(key.stringValue.prefix(40))'")
                continue
            }
            guard trait.accepts(value) else {
                dropped?.add(field, "one of \(trait.values.joined(separator: ", ")); got '\(value.prefix(40))'")
                continue
            }
            self[trait] = value
        }
    }

    /// A setting's word as a key of the state file.
    private struct Word: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }

    // MARK: Typed access, for the code that behaves differently

    public var isDark: Bool { self[.appearance] == "dark" }
    public var isRightToLeft: Bool { self[.direction] == "right-to-left" }
    public var isHighContrast: Bool { self[.contrast] == "high" }
    public var isBold: Bool { self[.legibility] == "bold" }
    public var reducesMotion: Bool { self[.reduceMotion] == "on" }
    public var contentSize: ContentSizeCategory {
        get { ContentSizeCategory(rawValue: self[.contentSize]) ?? .large }
        set { self[.contentSize] = newValue.rawValue }
    }
}

/// What a decoding of `DisplayTraits` dropped (settings or values this version does not know), collected when
/// the decoder's `userInfo[DroppedSettings.key]` holds one: each field and what was expected there.
// @unchecked: filled by one decoding, on one thread, and read after it.
public final class DroppedSettings: @unchecked Sendable {
    public private(set) var fields: [(field: String, expected: String)] = []
    public init() {}
    public static let key = CodingUserInfoKey(rawValue: "traitd.droppedSettings")!
    func add(_ field: String, _ expected: String) { fields.append((field, expected)) }
}
