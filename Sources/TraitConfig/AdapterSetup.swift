import TraitModel
import Vocabulary

/// One built-in adapter as the configuration's `adapters:` section sets it up for the adapter host:
///
///     adapters:
///       support-panel: { app: mail, max-width: 374 }
///       book-pages: { app: notes, enabled: false }
///
/// The adapter host (`traitd-adapters`) reads the section with the schemas of its built-in adapters and makes
/// them; the daemon, which links neither the adapters nor the solver, checks only its shape (see
/// `AdapterSchema`).
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
}

/// What `adapters:` may say about one built-in adapter: its name and its settings with their ranges. The
/// adapter host passes the schemas of its adapters to `DaemonConfig`; without them, any name and any
/// numeric setting is accepted, and the host refuses what it cannot use when it reads the same file.
public struct AdapterSchema: Sendable {
    public var name: String
    public var settings: [(key: String, range: ClosedRange<Double>)]

    public init(name: String, settings: [(key: String, range: ClosedRange<Double>)]) {
        self.name = name
        self.settings = settings
    }
}

extension AdapterSetup {
    /// Parses `adapters:`; each entry is laid over `base`'s entry of the same name. With `schemas`, names,
    /// setting keys and ranges are checked against them, and the result is in the schemas' order.
    static func parse(_ node: Node, _ reader: YAMLReader, base: [AdapterSetup], schemas: [AdapterSchema]?) throws
        -> [AdapterSetup]
    {
        let entries: [(name: String, node: Node)]
        if let schemas {
            let byName = try reader.mapping(node, what: "the built-in adapters", allowed: schemas.map(\.name))
            entries = schemas.compactMap { schema in byName[schema.name].map { (schema.name, $0) } }
        } else {
            guard case .mapping(let mapping) = node else {
                throw reader.fail(node, "expected the built-in adapters (a mapping of keys to values)")
            }
            entries = try mapping.map { key, value in
                guard let name = key.string else { throw reader.fail(key, "expected an adapter name") }
                return (name, value)
            }
        }
        var result = base
        for (name, entry) in entries {
            let schema = schemas?.first { $0.name == name }
            let fields = try reader.mapping(
                entry, what: "\(name)'s settings", allowed: schema.map { ["app", "enabled"] + $0.settings.map(\.key) })
            var setup = base.first { $0.name == name } ?? AdapterSetup(name: name, app: "")
            for (key, n) in fields.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "app":
                    let app = try reader.string(n, what: "an app name")
                    guard AppName.isValid(app) else { throw reader.fail(n, "'\(app)' is not a valid app name: use \(AppName.rule)") }
                    setup.app = app
                case "enabled":
                    setup.enabled = try reader.flag(n, what: "enabled to be true or false")
                default:
                    let range = schema?.settings.first { $0.key == key }?.range ?? -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
                    setup.values[key] = try reader.number(n, what: "\(name)'s \(key)", range: range)
                }
            }
            if setup.app.isEmpty { throw reader.fail(entry, "\(name) needs an app: { app: NAME }") }
            result.removeAll { $0.name == name }
            result.append(setup)
        }
        guard let schemas else { return result }
        return schemas.compactMap { schema in result.first { $0.name == schema.name } }
    }
}
