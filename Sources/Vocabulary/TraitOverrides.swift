/// A window scene's trait overrides, as UIKit's `UIWindowScene.traitOverrides` (iOS 17) has them: system traits
/// forced to a value in this window whatever the display says (a window forced to dark while the display is
/// light, a larger text size), and custom traits the app names (`UITraitDefinition`), each with a default that
/// it reads wherever it does not override it. Declared by `SetTraitOverrides`, kept in the app's declarations
/// (saved with its state), applied to its window's traits wherever they are made (`Simulation.layout`): the
/// window's `Traits` carry the result, and a change is a trait transition.
///
/// Overrides are given whole, in place of the ones the app had; a custom trait once named stays defined for
/// as long as the app is open, at its default when no longer overridden (a `UITraitDefinition` is a type: it
/// does not go away), so that dropping an override is a `TraitDidChange` back to the default.
public struct TraitOverrides: Sendable, Hashable {
    /// System traits forced to a value, each as its text (`TraitCollection.Field.text(in:)`: `dark`, `2`).
    public var system: [TraitCollection.Field: String] = [:]
    /// Every custom trait the app has named, by name: its default and its override, if any.
    public var custom: [String: CustomTrait] = [:]

    public init(system: [TraitCollection.Field: String] = [:], custom: [String: CustomTrait] = [:]) {
        self.system = system
        self.custom = custom
    }

    public var isEmpty: Bool { system.isEmpty && custom.isEmpty }

    /// `traits` with the overrides in place: each overridden system trait set, each custom trait at its value.
    public func applied(to traits: TraitCollection) -> TraitCollection {
        guard !isEmpty else { return traits }
        var result = traits
        for (field, text) in system { _ = field.set(text, in: &result) }
        result.custom = custom.mapValues(\.value)
        return result
    }

    /// The most custom traits a window may name, the longest name and the longest string value.
    public static let maximumCustomTraits = 64
    public static let maximumName = 64
    public static let maximumText = 1024

    /// Why `name` cannot name a custom trait, or nil: 1 to 64 letters, digits, `-`, `_` or `.`, with a dot, as
    /// `UITraitDefinition.identifier`'s reverse-DNS names (`com.example.density`); the dot keeps a misspelt
    /// system trait (`userInterfaceStyel`) from passing for a custom one.
    public static func customNameProblem(_ name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
        guard !name.isEmpty, name.count <= maximumName, allowed, name.contains("."), !name.hasPrefix("."), !name.hasSuffix(".") else {
            let shown = name.prefix(80)
            return "'\(shown)' is no system trait (they are: \(TraitCollection.Field.all.map(\.name).joined(separator: ", "))); "
                + "a custom trait is named as UITraitDefinition's identifier, 1 to \(maximumName) letters, digits, '-', '_' or '.' "
                + "with a dot inside (com.example.\(shown.filter { $0.isLetter || $0.isNumber }.prefix(40)))"
        }
        return nil
    }

    /// Why these overrides cannot be a window's, or nil: the custom traits' number and names, their values of
    /// their default's type, their strings' length, each system value one its trait takes. `SetTraitOverrides`
    /// and a loaded state are held to this one rule.
    public var problem: String? {
        if custom.count > Self.maximumCustomTraits {
            return "a window has at most \(Self.maximumCustomTraits) custom traits; got \(custom.count)"
        }
        for (field, text) in system.sorted(by: { $0.key.name < $1.key.name }) {
            if let problem = field.problem(with: text) { return problem }
        }
        for (name, trait) in custom.sorted(by: { $0.key < $1.key }) {
            if let problem = Self.customNameProblem(name) { return problem }
            if let problem = trait.problem { return "custom trait '\(name)': \(problem)" }
        }
        return nil
    }
}

/// A custom trait (`UITraitDefinition`): its default, and the app's override of it, if any.
public struct CustomTrait: Sendable, Hashable, Codable {
    public var defaultValue: CustomTraitValue
    public var override: CustomTraitValue?

    public init(defaultValue: CustomTraitValue, override: CustomTraitValue? = nil) {
        self.defaultValue = defaultValue
        self.override = override
    }

    /// What the window reads: the override, or the default.
    public var value: CustomTraitValue { override ?? defaultValue }

    /// Why this trait cannot be, or nil: an override of another type than the default, a string too long.
    public var problem: String? {
        if let override, override.typeName != defaultValue.typeName {
            return "its default is a \(defaultValue.typeName) (\(defaultValue)), so its value must be one too; got a \(override.typeName)"
        }
        for value in [defaultValue, override].compactMap({ $0 }) {
            if case .string(let text) = value, text.count > TraitOverrides.maximumText {
                return "a string value is at most \(TraitOverrides.maximumText) characters; got \(text.count)"
            }
            if case .double(let number) = value, !number.isFinite { return "a number value is finite; got \(number)" }
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case defaultValue = "default", override = "value" }
}

/// A custom trait's value: one of the kinds `UITraitDefinition` declares in practice (a flag, a number, a name).
public enum CustomTraitValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)

    /// `boolean`, `integer`, `number` or `string`: what a refusal names.
    public var typeName: String {
        switch self {
        case .bool: return "boolean"
        case .integer: return "integer"
        case .double: return "number"
        case .string: return "string"
        }
    }

    /// The default of a custom trait named with an override alone: false, 0 or the empty string, of the
    /// override's type (UIKit's custom traits have a default in their definition; where an app gives none, the
    /// zero of the type is the one nothing is drawn for).
    public var zero: CustomTraitValue {
        switch self {
        case .bool: return .bool(false)
        case .integer: return .integer(0)
        case .double: return .double(0)
        case .string: return .string("")
        }
    }

    /// As a person reads it in a list of traits: `true`, `3`, `0.5`, `compact`.
    public var text: String {
        switch self {
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number): return number.compact
        case .string(let text): return text
        }
    }

    /// As a sentence quotes it: a string in quotes (`'compact'`), the others as `text`.
    public var description: String {
        if case .string(let text) = self { return "'\(text)'" }
        return text
    }

    /// Kept in a state file under the name of its kind (`{"string": "compact"}`), so that 1 and 1.0 stay apart.
    private enum CodingKeys: String, CodingKey { case bool, integer, double, string }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let flag = try c.decodeIfPresent(Bool.self, forKey: .bool) { self = .bool(flag) }
        else if let number = try c.decodeIfPresent(Int64.self, forKey: .integer) { self = .integer(number) }
        else if let number = try c.decodeIfPresent(Double.self, forKey: .double) { self = .double(number) }
        else if let text = try c.decodeIfPresent(String.self, forKey: .string) { self = .string(text) }
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a custom trait's value is one of bool, integer, double or string"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .bool(let flag): try c.encode(flag, forKey: .bool)
        case .integer(let number): try c.encode(number, forKey: .integer)
        case .double(let number): try c.encode(number, forKey: .double)
        case .string(let text): try c.encode(text, forKey: .string)
        }
    }
}

extension TraitOverrides: Codable {
    private enum CodingKeys: String, CodingKey { case system, custom }

    /// Kept as `{"system": {"userInterfaceStyle": "dark"}, "custom": {"com.example.density": {...}}}`; a system
    /// trait this version does not know, or a value it does not take, is refused, naming it (a state file is
    /// checked as `SetTraitOverrides` is).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let texts = try c.decodeIfPresent([String: String].self, forKey: .system) ?? [:]
        system = [:]
        for (name, text) in texts {
            guard let field = TraitCollection.Field.named(name) else {
                throw DecodingError.dataCorruptedError(forKey: .system, in: c, debugDescription: "no system trait is named '\(name.prefix(80))'")
            }
            system[field] = text
        }
        custom = try c.decodeIfPresent([String: CustomTrait].self, forKey: .custom) ?? [:]
        if let problem {
            throw DecodingError.dataCorruptedError(forKey: .custom, in: c, debugDescription: problem)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !system.isEmpty { try c.encode(Dictionary(uniqueKeysWithValues: system.map { ($0.key.name, $0.value) }), forKey: .system) }
        if !custom.isEmpty { try c.encode(custom, forKey: .custom) }
    }
}

/// What `SetTraitOverrides` asks, as read at the edge: the system traits to force, and for each custom trait
/// named its override (none: named at its default) and, where the app gave one, its default.
public struct TraitOverrideRequest: Sendable, Hashable {
    public struct Custom: Sendable, Hashable {
        public var defaultValue: CustomTraitValue?
        public var override: CustomTraitValue?

        public init(defaultValue: CustomTraitValue? = nil, override: CustomTraitValue? = nil) {
            self.defaultValue = defaultValue
            self.override = override
        }
    }

    public var system: [TraitCollection.Field: String]
    public var custom: [String: Custom]

    public init(system: [TraitCollection.Field: String] = [:], custom: [String: Custom] = [:]) {
        self.system = system
        self.custom = custom
    }
}

extension TraitOverrides {
    /// These overrides with `request`'s in their place: its system traits instead of these; each custom trait it
    /// names overridden as it says, with the default it gives, else the one the trait had, else the zero of the
    /// override's type; every custom trait named before and not now back at its default (still named). The
    /// caller checks the result's `problem`.
    public func replaced(by request: TraitOverrideRequest) -> TraitOverrides {
        var result = TraitOverrides(system: request.system, custom: custom.mapValues { CustomTrait(defaultValue: $0.defaultValue) })
        for (name, asked) in request.custom {
            let known = custom[name]?.defaultValue
            guard let defaultValue = asked.defaultValue ?? known ?? asked.override?.zero else { continue }
            result.custom[name] = CustomTrait(defaultValue: defaultValue, override: asked.override)
        }
        return result
    }
}
