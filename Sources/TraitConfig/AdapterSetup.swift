import Adapters
import TraitModel

/// One built-in adapter as the configuration's `adapters:` section sets it up for the adapter host:
///
///     adapters:
///       support-panel: { app: mail, max-width: 374 }
///       book-pages: { app: notes, enabled: false }
///
/// The daemon reads the section only to check it; `traitd-adapters` acts on it.
public struct AdapterSetup: Sendable, Equatable {
    /// The built-in adapter's name (`support-panel`).
    public var name: String
    public var app: String
    public var enabled: Bool
    /// Settings given in the file; the others keep the adapter's defaults.
    public var values: [String: Double]

    public init(name: String, app: String, enabled: Bool = true, values: [String: Double] = [:]) {
        self.name = name
        self.app = app
        self.enabled = enabled
        self.values = values
    }

    /// The adapter this sets up, or nil when it is turned off.
    public func makeAdapter() -> (any LayoutAdapter)? {
        guard enabled else { return nil }
        return BuiltInAdapter.named(name)?.make(app: app, values: values)
    }
}

extension AdapterSetup {
    /// Parses `adapters:`; each entry is laid over `base`'s entry of the same name.
    static func parse(_ node: Node, _ reader: YAMLReader, base: [AdapterSetup]) throws -> [AdapterSetup] {
        let names = BuiltInAdapter.all.map(\.name)
        let entries = try reader.mapping(node, what: "the built-in adapters", allowed: names)
        var result = base
        for kind in BuiltInAdapter.all {
            guard let entry = entries[kind.name] else { continue }
            let keys = ["app", "enabled"] + kind.settings.map(\.key)
            let fields = try reader.mapping(entry, what: "\(kind.name)'s settings", allowed: keys)
            var setup = base.first { $0.name == kind.name } ?? AdapterSetup(name: kind.name, app: "")
            if let n = fields["app"] {
                let app = try reader.string(n, what: "an app name")
                guard AppName.isValid(app) else { throw reader.fail(n, "'\(app)' is not a valid app name: use \(AppName.rule)") }
                setup.app = app
            }
            if let n = fields["enabled"] {
                guard case .scalar(let scalar) = n, let value = Bool(scalar.string) else {
                    throw reader.fail(n, "expected enabled to be true or false")
                }
                setup.enabled = value
            }
            for setting in kind.settings {
                guard let n = fields[setting.key] else { continue }
                setup.values[setting.key] = try reader.number(n, what: "\(kind.name)'s \(setting.key)", range: setting.range)
            }
            if setup.app.isEmpty { throw reader.fail(entry, "\(kind.name) needs an app: { app: NAME }") }
            result.removeAll { $0.name == kind.name }
            result.append(setup)
        }
        return names.compactMap { name in result.first { $0.name == name } }
    }
}
