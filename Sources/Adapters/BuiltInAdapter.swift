import Vocabulary
/// A built-in adapter kind: its name, what it does, its settings with their defaults, and how to make one.
///
/// The configuration's `adapters:` section turns these on for an app and may change settings
/// (`support-panel: { app: mail, max-width: 320 }`); `traitd-adapters --list` prints this table.
public struct BuiltInAdapter: Sendable {
    /// A number the configuration may set.
    public struct Setting: Sendable {
        public let key: String
        public let defaultValue: Double
        public let range: ClosedRange<Double>
        public let help: String
    }

    public let name: String
    public let summary: String
    public let settings: [Setting]
    private let factory: @Sendable (_ app: String, _ values: Values) -> any LayoutAdapter

    init(name: String, summary: String, settings: [Setting],
         make: @escaping @Sendable (_ app: String, _ values: Values) -> any LayoutAdapter) {
        self.name = name
        self.summary = summary
        self.settings = settings
        factory = make
    }

    /// An adapter of this kind for `app`; `values` overrides defaults by key (unknown keys and values out of
    /// range are the configuration's to refuse, see `check`).
    public func make(app: String, values: [String: Double] = [:]) -> any LayoutAdapter {
        factory(app, Values(defaults: Dictionary(uniqueKeysWithValues: settings.map { ($0.key, $0.defaultValue) }),
                            overrides: values))
    }

    /// Why `value` cannot be `key`'s value, or nil when it can.
    public func check(_ key: String, _ value: Double) -> String? {
        guard let setting = settings.first(where: { $0.key == key }) else {
            return "unknown setting '\(key)' for \(name); expected one of: \((["app", "enabled"] + settings.map(\.key)).joined(separator: ", "))"
        }
        guard setting.range.contains(value) else {
            return "\(key) must be from \(setting.range.lowerBound.compact) to \(setting.range.upperBound.compact)"
        }
        return nil
    }

    /// Every built-in adapter, in the order the host registers them.
    public static let all: [BuiltInAdapter] = [SupportPanel.kind, SplitColumns.kind, XYSlider.kind, BookPages.kind]

    public static func named(_ name: String) -> BuiltInAdapter? { all.first { $0.name == name } }

    /// A setting's values, defaults overridden by the configuration.
    struct Values: Sendable {
        let defaults: [String: Double]
        let overrides: [String: Double]
        subscript(_ key: String) -> Double { overrides[key] ?? defaults[key]! }
    }
}
