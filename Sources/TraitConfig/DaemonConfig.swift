import Limits
import DefaultConfig
import FoundationEssentials
import TraitModel
import Vocabulary

/// The daemon's settings: the embedded default (`Config/traitd.yaml`) with a user's file laid over it.
public struct DaemonConfig: Sendable, Equatable {
    public var bus: String
    public var display: DisplayState
    public var transitions: TransitionSettings
    /// How long a transition waits for adapter reports, in milliseconds.
    public var deadlineMilliseconds: Int
    public var deviceDirectories: [String]
    /// Where the daemon keeps its state; nil leaves the choice to `--state-dir`, `$STATE_DIRECTORY` or
    /// `$XDG_STATE_HOME/traitd`.
    public var stateDirectory: String?
    public var limits: Limits
    /// The built-in adapters the adapter host registers (the daemon only checks this section's shape).
    public var adapters: [AdapterSetup]
    /// The web pages and desktop apps the adapter host's bridges run (the daemon only checks this section's shape).
    public var bridges: BridgeSetup
    /// How many windows the `windowed` mode keeps on screen (`windowing: { windowed-limit: N }`).
    public var windowedLimit: Int
    /// Which layout checks are made, by which rule (`layout-checks: { target-size: apple-44pt|wcag-24px, off: [RULE...] }`).
    public var layoutChecks: LayoutChecks

    /// The embedded default. It is part of the binary and tested, so loading it cannot fail at run time.
    public static func embedded(adapterSchemas: [AdapterSchema]? = nil) -> DaemonConfig {
        let file = DefaultConfig.configuration
        // swiftlint:disable:next force_try
        return try! DaemonConfig(text: file.text, file: "<embedded>/" + file.name, base: nil, adapterSchemas: adapterSchemas)
    }

    /// The embedded default with `path`'s keys laid over it.
    public static func load(path: String, adapterSchemas: [AdapterSchema]? = nil) throws -> DaemonConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, line: 1, column: 1, message: "cannot read the file")
        }
        return try DaemonConfig(
            text: String(decoding: data, as: UTF8.self), file: path, base: embedded(adapterSchemas: adapterSchemas),
            adapterSchemas: adapterSchemas)
    }

    /// Parses `text`; keys it leaves out come from `base` (and must all be present when `base` is nil).
    /// `adapterSchemas`: the adapter host's built-in adapters, to check `adapters:` against (see `AdapterSchema`).
    public init(text: String, file: String, base: DaemonConfig?, adapterSchemas: [AdapterSchema]? = nil) throws {
        let reader = YAMLReader(file: file)
        let root = try reader.document(text)
        let map = try root.map {
            try reader.mapping($0, what: "the traitd configuration",
                               allowed: ["bus", "display", "traits", "apps", "transitions", "device-directories", "state-directory", "limits",
                                         "adapters", "bridges", "windowing", "layout-checks"])
        } ?? [:]
        func missing(_ key: String) -> ConfigError { reader.fail(root, "missing key '\(key)'") }

        bus = try map["bus"].map { try reader.string($0, what: "a bus (session, system or an address)") }
            ?? { guard let base else { throw missing("bus") }; return base.bus }()

        var display = base?.display ?? DisplayState(device: "", orientation: .portrait, arrangement: .full, apps: [])
        if let node = map["display"] {
            let fields = try reader.mapping(node, what: "the display", allowed: ["device", "orientation", "arrangement", "windowing"])
            if let n = fields["windowing"] { display.windowing = try reader.choice(n, what: "windowing mode", Windowing.self) }
            if let n = fields["device"] { display.device = try reader.string(n, what: "a device id") }
            if let n = fields["orientation"] { display.orientation = try reader.choice(n, what: "orientation", Orientation.self) }
            if let n = fields["arrangement"] { display.arrangement = try reader.choice(n, what: "arrangement", Arrangement.self) }
        } else if base == nil {
            throw missing("display")
        }
        if let node = map["traits"] {
            let fields = try reader.mapping(node, what: "the traits", allowed: DisplayTrait.all.map(\.word))
            for trait in DisplayTrait.all {
                if let n = fields[trait.word] { display.traits[trait] = try reader.value(n, of: trait) }
            }
        }
        if let node = map["apps"] {
            display.apps = try reader.sequence(node, what: "the apps").map { item in
                let fields = try reader.mapping(item, what: "an app", allowed: ["name", "role"])
                guard let name = fields["name"], let role = fields["role"] else {
                    throw reader.fail(item, "expected { name: APP, role: primary|secondary|pip|window }")
                }
                let appName = try reader.string(name, what: "an app name")
                guard AppName.isValid(appName) else {
                    throw reader.fail(name, "'\(appName)' is not a valid app name: use \(AppName.rule)")
                }
                return .init(name: appName, role: try reader.choice(role, what: "role", Role.self))
            }
        }
        self.display = display

        transitions = base?.transitions ?? TransitionSettings()
        deadlineMilliseconds = base?.deadlineMilliseconds ?? 500
        if let node = map["transitions"] {
            let fields = try reader.mapping(node, what: "the transition settings", allowed: ["duration", "deadline-ms"])
            if let n = fields["duration"] {
                transitions.duration = try reader.number(n, what: "the transition duration in seconds", range: 0...10)
            }
            if let n = fields["deadline-ms"] {
                deadlineMilliseconds = Int(try reader.number(n, what: "the adapter deadline in milliseconds", range: 1...60_000))
            }
        }
        windowedLimit = base?.windowedLimit ?? Simulation.defaultWindowedLimit
        if let node = map["windowing"] {
            let fields = try reader.mapping(node, what: "the windowing settings", allowed: ["windowed-limit"])
            if let n = fields["windowed-limit"] {
                windowedLimit = Int(try reader.number(n, what: "the windowed mode's window limit", range: 1...32))
            }
        }
        layoutChecks = base?.layoutChecks ?? LayoutChecks()
        if let node = map["layout-checks"] {
            let fields = try reader.mapping(node, what: "the layout checks", allowed: ["target-size", "off"])
            if let n = fields["target-size"] {
                layoutChecks.targetSize = try reader.choice(n, what: "target size rule", LayoutChecks.TargetSize.self)
            }
            if let n = fields["off"] {
                // A rule (`small-target`), or a rule for one element (`small-target button:Close`).
                var rules: Set<LayoutRule> = [], elements: Set<LayoutChecks.ElementRule> = []
                for item in try reader.sequence(n, what: "the rules left out") {
                    let text = try reader.string(item, what: "a rule, or a rule and an element")
                    if text.contains(" ") {
                        guard let element = LayoutChecks.ElementRule(parsing: text) else {
                            throw reader.fail(item, "expected RULE ELEMENT (`small-target button:Close`), a rule of "
                                              + LayoutRule.allCases.map(\.rawValue).joined(separator: ", ") + "; got '\(text)'")
                        }
                        elements.insert(element)
                    } else {
                        rules.insert(try reader.choice(item, what: "layout rule", LayoutRule.self))
                    }
                }
                layoutChecks.off = rules
                layoutChecks.offElements = elements
            }
        }
        deviceDirectories = try map["device-directories"].map { node in
            try reader.sequence(node, what: "the device directories").map { try reader.string($0, what: "a directory") }
        } ?? base?.deviceDirectories ?? []
        if let node = map["state-directory"] {
            stateDirectory = try reader.string(node, what: "a directory")
        } else {
            stateDirectory = base?.stateDirectory
        }
        limits = base?.limits ?? Limits()
        if let node = map["limits"] {
            let keys = Limits.keys
            let fields = try reader.mapping(node, what: "the limits", allowed: keys.map(\.key))
            for (key, path, range) in keys {
                if let n = fields[key] { limits[keyPath: path] = Int(try reader.number(n, what: key, range: range)) }
            }
        }
        adapters = try map["adapters"].map {
            try AdapterSetup.parse($0, reader, base: base?.adapters ?? [], schemas: adapterSchemas)
        }
            ?? base?.adapters ?? []
        bridges = try map["bridges"].map { try BridgeSetup.parse($0, reader, base: base?.bridges ?? BridgeSetup()) }
            ?? base?.bridges ?? BridgeSetup()
        self.configFile = file
        self.displayNode = map["display"]?.mark ?? root?.mark
    }

    // Where the display section was, to locate errors that only the simulation can find (an unknown device).
    private var configFile: String = ""
    private var displayNode: Mark?

    /// The simulation this configuration starts; a display the catalog cannot show is a located error.
    public func makeSimulation(catalog: DeviceCatalog) throws -> Simulation {
        do {
            return try Simulation(catalog: catalog, state: display, settings: transitions, windowedLimit: windowedLimit)
        } catch {
            throw ConfigError(file: configFile, line: displayNode?.line ?? 1, column: displayNode?.column ?? 1,
                              message: "the display cannot start: \(error.message)")
        }
    }

    public static func == (a: DaemonConfig, b: DaemonConfig) -> Bool {
        a.bus == b.bus && a.display == b.display && a.transitions == b.transitions
            && a.deadlineMilliseconds == b.deadlineMilliseconds && a.deviceDirectories == b.deviceDirectories
            && a.stateDirectory == b.stateDirectory && a.limits == b.limits && a.adapters == b.adapters
            && a.layoutChecks == b.layoutChecks
            && a.windowedLimit == b.windowedLimit && a.bridges == b.bridges
    }

    /// Where user device profiles live: `$XDG_CONFIG_HOME/traitd/devices`, else `~/.config/traitd/devices`.
    public static var userDeviceDirectory: String { userConfigDirectory + "/devices" }

    /// Where the adapter host finds a user's layout files: `$XDG_CONFIG_HOME/traitd/layouts`, else
    /// `~/.config/traitd/layouts`.
    public static var userLayoutDirectory: String { userConfigDirectory + "/layouts" }

    static var userConfigDirectory: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((env["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config")
        return base + "/traitd"
    }
}
