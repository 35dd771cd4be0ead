import DBus
import Vocabulary

/// `SetTraitOverrides`' argument and a window's custom traits as the bus carries them, read and written here
/// only: the model holds `TraitOverrides` and `CustomTraitValue`, never a `DBusValue`.
extension CustomTraitValue {
    /// b, x, d or s; the other integer types (y, n, q, i, u, and t up to 2^63 - 1) are read as integers and
    /// published as x.
    public init?(bus value: DBusValue) {
        switch value.unwrapped {
        case .boolean(let flag): self = .bool(flag)
        case .byte(let n): self = .integer(Int64(n))
        case .int16(let n): self = .integer(Int64(n))
        case .uint16(let n): self = .integer(Int64(n))
        case .int32(let n): self = .integer(Int64(n))
        case .uint32(let n): self = .integer(Int64(n))
        case .int64(let n): self = .integer(n)
        case .uint64(let n) where n <= UInt64(Int64.max): self = .integer(Int64(n))
        case .double(let n): self = .double(n)
        case .string(let text): self = .string(text)
        default: return nil
        }
    }

    public var bus: DBusValue {
        switch self {
        case .bool(let flag): return .boolean(flag)
        case .integer(let n): return .int64(n)
        case .double(let n): return .double(n)
        case .string(let text): return .string(text)
        }
    }
}

extension TraitOverrideRequest {
    /// The keys of a custom trait's `a{sv}` form.
    public static let defaultKey = "default", valueKey = "value"

    /// Reads `SetTraitOverrides`' dictionary: a system trait (its key in `Traits`) to a value of the type `Traits`
    /// gives it (s; d for displayScale); a custom trait (a name with a dot) to its override (b, s, d or an
    /// integer), or to `a{sv}` with `default` and, optionally, `value`. Each mistake is `InvalidArgs` naming the
    /// key and what was expected; values are checked by the model (`TraitOverrides.problem`).
    public init(bus entries: [String: DBusValue]) throws {
        self.init()
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let value = value.unwrapped
            if let field = TraitCollection.Field.named(key) {
                switch (field, value) {
                case (.displayScale, .double(let scale)): system[field] = scale.compact
                case (.displayScale, _):
                    throw DBusError.invalidArgs("displayScale must be 'd' (a number), but it is '\(value.signature)'")
                case (_, .string(let text)): system[field] = text
                default:
                    throw DBusError.invalidArgs("\(key) must be 's' (\(field.values?.joined(separator: ", ") ?? "")), but it is '\(value.signature)'")
                }
                continue
            }
            if let problem = TraitOverrides.customNameProblem(key) { throw DBusError.invalidArgs(problem) }
            if let override = CustomTraitValue(bus: value) {
                custom[key] = Custom(override: override)
                continue
            }
            guard value.hasSignature("a{sv}"), let fields = try value.uniqueDictionary(key) else {
                throw DBusError.invalidArgs("custom trait '\(key)' must be a boolean, an integer, a number or a string (b, x, d, s), "
                    + "or a{sv} with '\(Self.defaultKey)' and '\(Self.valueKey)'; got '\(value.signature)'")
            }
            if let stray = fields.keys.sorted().first(where: { $0 != Self.defaultKey && $0 != Self.valueKey }) {
                throw DBusError.invalidArgs("custom trait '\(key)': unknown key '\(stray.prefix(40))'; expected '\(Self.defaultKey)' and '\(Self.valueKey)'")
            }
            func read(_ name: String) throws(DBusError) -> CustomTraitValue? {
                guard let given = fields[name] else { return nil }
                guard let read = CustomTraitValue(bus: given) else {
                    throw DBusError.invalidArgs("custom trait '\(key)': its \(name) must be b, x, d or s; got '\(given.unwrapped.signature)'")
                }
                return read
            }
            guard let defaultValue = try read(Self.defaultKey) else {
                throw DBusError.invalidArgs("custom trait '\(key)': a{sv} gives its '\(Self.defaultKey)' (and, to override it, its '\(Self.valueKey)')")
            }
            custom[key] = Custom(defaultValue: defaultValue, override: try read(Self.valueKey))
        }
    }

    /// The same dictionary, as a client sends it.
    public var bus: [String: DBusValue] {
        var entries: [String: DBusValue] = [:]
        for (field, text) in system {
            entries[field.name] = field == .displayScale ? .double(Double(text) ?? 0) : .string(text)
        }
        for (name, asked) in custom {
            if let defaultValue = asked.defaultValue {
                var fields = [Self.defaultKey: defaultValue.bus]
                if let override = asked.override { fields[Self.valueKey] = override.bus }
                entries[name] = .vardict(fields)
            } else if let override = asked.override {
                entries[name] = override.bus
            }
        }
        return entries
    }
}

extension Parameter where Value == TraitOverrideRequest {
    /// `a{sv}`: `SetTraitOverrides`' overrides (`TraitOverrideRequest.init(bus:)`).
    public static func traitOverrides(_ name: String) -> Self {
        Parameter<[String: DBusValue]>.vardict(name).map(decode: { try TraitOverrideRequest(bus: $0) }, encode: \.bus)
    }
}
