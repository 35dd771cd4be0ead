import TraitModel
import Vocabulary

/// A scenario file (`traitctl scenario run FILE`): a starting display, then steps that change it, each a command
/// of the model or a restoration state. Run against a daemon, it records every signal as a trace that a later
/// run is checked against (docs/traitctl.md, "Scenarios and golden traces").
///
/// ```yaml
/// device: ipad-9.7                  # a profile id (required)
/// orientation: landscape-left       # optional: the start's orientation
/// adapters: true                    # with --private: start the adapter host too
/// layouts: [my-layouts]             # with --private: the host runs these folders' *.layout (alone, unless adapters: true)
/// web: { notes: page.html }         # with --private: pages as apps' adapter web (a path is relative to the file)
/// apps: { mail: gnome-calculator }  # with --private: unmodified desktop apps as apps' adapter desktop
/// strict: true                      # the run fails where an adapter misses or fails, or a layout has a problem
/// aria: true                        # the trace keeps each bridged window's accessibility snapshot after each step
/// screenshots: true                 # each bridged window's picture after each step, checked against golden PNGs
/// steps:
///   - set: { orientation: portrait }        # device, orientation, arrangement, windowing, keyboard, or a setting's word (in the file's order)
///   - open: { app: video, role: pip }
///   - close: video
///   - drag: [begin, 400, end]               # BeginDividerDrag, MoveDivider(400), EndDividerDrag
///   - restore: { app: mail, state: { draft: hello, scroll: 1200 } }
///   - frame: { app: mail, frame: [0, 0, 600, 600] }
///   - tile: { app: notes, position: right-half }
///   - resize: { app: notes, size: [600, 500], live: 5 }  # live: BeginResize, 5 ResizeTo, EndResize
///   - raise: mail
///   - display: { connect: external-1080p }  # or { move: notes, to: external-1 }, { disconnect: external-1 }
///   - set: { keyboard: docked }
/// ```
public struct Scenario: Sendable {
    public var device: String
    public var orientation: Orientation?
    /// Whether the adapter host runs beside a private daemon (`--private`).
    public var adapters: Bool
    /// Folders of layout files the adapter host runs (`traitd-adapters --layouts`), as written in the file:
    /// relative ones are relative to the scenario file's folder. Without `adapters: true`, the host runs these
    /// files alone (`--only-layouts`); with it, beside the built-in adapters.
    public var layouts: [String] = []
    /// app -> the web page the adapter host shows as its adapter `web` (`traitd-adapters --web`): a URL, or a
    /// path relative to the scenario file's folder.
    public var web: [String: String] = [:]
    /// app -> the command of the desktop app the adapter host runs as its adapter `desktop` (`traitd-adapters --app`).
    public var apps: [String: String] = [:]
    /// Whether the run fails (exit 1) at a step whose transitions an adapter missed or failed, or after which a
    /// window has a layout problem: what `traitctl explore` writes, so its finding fails on its own.
    public var strict = false
    /// Whether the trace keeps the accessibility snapshot each bridged window's adapter sends after each step
    /// (the host runs with `--aria-snapshots`), so that a golden trace holds them too.
    public var aria = false
    /// Whether each bridged window's screenshot after each step is kept (the host runs with `--screenshots`) and
    /// checked against the golden trace's pictures (`TRACE.pictures/`).
    public var screenshots = false
    /// The scenario's matrix (`matrix:`): `traitctl scenario run --matrix` runs it once per combination
    /// (`combinations`), in the file's order of keys.
    public var matrix: [MatrixDimension] = []
    public var steps: [Step]
    /// The line each step was written on (a matrix's steps: its key's), for what a refused step says.
    public var stepLines: [Int] = []

    public enum Step: Sendable, Equatable {
        /// A command of the model, as its D-Bus method would send it.
        case command(Command)
        /// An app's restoration state (`SetRestorationState`), its values typed as `traitctl restore` types them.
        case restore(app: String, state: [String: String])
        /// A free-form window resized to this width, its height kept (a matrix's `width:`).
        case width(app: String, Double)
        /// A free-form window resized, its top-left corner kept: at once (`SetFrame`), or live in `live` steps
        /// (`BeginResize`, `ResizeTo` from the size it has to this one, `EndResize`).
        case resize(app: String, Size, live: Int?)
        /// A step's line in the trace: what it did, in the file's words.
        public var title: String {
            switch self {
            case .command(let command): return Scenario.describe(command)
            case .restore(let app, let state):
                return "restore \(app) " + state.keys.sorted().map { "\($0)=\(state[$0]!)" }.joined(separator: " ")
            case .width(let app, let width): return "width \(app) \(width.compact)"
            case .resize(let app, let size, let live):
                return "resize \(app) to \(size.width.compact) x \(size.height.compact)" + (live.map { " live \($0)" } ?? "")
            }
        }
    }

    /// Parses a scenario; a mistake is a `ConfigError` at its file, line and column, saying what was expected.
    /// `knownDevices`: the device ids there are (a catalog's); when given, a scenario naming another is refused
    /// at its line, before anything runs.
    public static func parse(_ text: String, file: String, knownDevices: [String]? = nil) throws -> Scenario {
        let reader = YAMLReader(file: file, knownDevices: knownDevices)
        guard let root = try reader.document(text) else { throw reader.fail(nil, "expected a scenario, found an empty file") }
        let map = try reader.mapping(root, what: "a scenario", allowed: ["device", "orientation", "adapters", "layouts", "web", "apps", "strict", "aria", "screenshots", "matrix", "steps"])
        guard let device = map["device"] else { throw reader.fail(root, "missing key 'device' (a profile id) in the scenario") }
        var scenario = Scenario(
            device: try reader.device(device),
            orientation: try map["orientation"].map { try reader.choice($0, what: "orientation", Orientation.self) },
            adapters: try map["adapters"].map { try reader.flag($0, what: "adapters (true or false)") } ?? false,
            steps: [])
        if let layouts = map["layouts"] {
            scenario.layouts = try reader.sequence(layouts, what: "the folders of layout files").map {
                try reader.string($0, what: "a folder of layout files")
            }
        }
        if let web = map["web"] {
            for (app, page) in try reader.mapping(web, what: "the web pages (app: URL or path)", allowed: nil) {
                guard AppName.isValid(app) else { throw reader.fail(web, "'\(app)' is not a valid app name: \(AppName.rule)") }
                scenario.web[app] = try reader.string(page, what: "a URL or a path")
            }
        }
        if let apps = map["apps"] {
            for (app, command) in try reader.mapping(apps, what: "the desktop apps (app: command)", allowed: nil) {
                guard AppName.isValid(app) else { throw reader.fail(apps, "'\(app)' is not a valid app name: \(AppName.rule)") }
                scenario.apps[app] = try reader.string(command, what: "a command")
            }
        }
        scenario.strict = try map["strict"].map { try reader.flag($0, what: "strict (true or false)") } ?? false
        scenario.aria = try map["aria"].map { try reader.flag($0, what: "aria (true or false)") } ?? false
        scenario.screenshots = try map["screenshots"].map { try reader.flag($0, what: "screenshots (true or false)") } ?? false
        if let matrix = map["matrix"] { scenario.matrix = try parseMatrix(matrix, reader) }
        // A matrix alone is a scenario: each combination's trace is its start's layouts.
        guard let steps = map["steps"] else {
            if !scenario.matrix.isEmpty { return scenario }
            throw reader.fail(root, "missing key 'steps' (a list of steps) in the scenario")
        }
        for node in try reader.sequence(steps, what: "the steps") {
            let parsed = try parseStep(node, reader)
            scenario.steps += parsed
            scenario.stepLines += Array(repeating: node.mark?.line ?? 0, count: parsed.count)
        }
        return scenario
    }

    /// The words a step may start with.
    static let stepWords = ["set", "open", "close", "drag", "restore", "frame", "tile", "resize", "raise", "display"]

    private static func parseStep(_ node: Node, _ reader: YAMLReader) throws -> [Step] {
        let step = try reader.mapping(node, what: "a step (one of \(stepWords.joined(separator: ", ")))", allowed: stepWords)
        guard step.count == 1, let (word, value) = step.first else {
            throw reader.fail(node, "a step has one key, one of \(stepWords.joined(separator: ", "))")
        }
        switch word {
        case "set":
            // In the file's order: a rotation to landscape before a split that only landscape offers.
            return try reader.entries(value, what: "what to set", allowed: setWords).map { key, field, _ in
                try setCommand(key, field, reader)
            }
        case "open":
            let fields = try reader.mapping(value, what: "the app to open", allowed: ["app", "role"])
            guard let app = fields["app"] else { throw reader.fail(value, "expected { app: NAME, role: ROLE }") }
            let role = try fields["role"].map { try reader.choice($0, what: "role", Role.self) } ?? .secondary
            return [.command(.openApp(try reader.string(app, what: "an app name"), role))]
        case "close":
            return [.command(.closeApp(try reader.string(value, what: "an app name")))]
        case "drag":
            return try reader.sequence(value, what: "the drag (begin, positions, end)").map { move in
                switch move.string {
                case "begin": return .command(.beginDividerDrag)
                case "end": return .command(.endDividerDrag)
                default: return .command(.moveDivider(try reader.number(move, what: "begin, end or a divider position", range: 0...10_000)))
                }
            }
        case "restore":
            let fields = try reader.mapping(value, what: "the restoration state", allowed: ["app", "state"])
            guard let app = fields["app"], let state = fields["state"] else {
                throw reader.fail(value, "expected { app: NAME, state: { KEY: VALUE, ... } }")
            }
            let values = try reader.mapping(state, what: "the state's keys and values", allowed: nil)
            return [.restore(app: try reader.string(app, what: "an app name"),
                             state: try values.mapValues { try reader.string($0, what: "a value") })]
        case "frame":
            let fields = try reader.mapping(value, what: "the window's frame", allowed: ["app", "frame"])
            guard let app = fields["app"], let frame = fields["frame"] else { throw reader.fail(value, "expected { app: NAME, frame: [X, Y, W, H] }") }
            let numbers = try reader.sequence(frame, what: "x, y, width, height").map { try reader.number($0, what: "a number of points", range: -100_000...100_000) }
            guard numbers.count == 4 else { throw reader.fail(frame, "expected [X, Y, WIDTH, HEIGHT]") }
            return [.command(.setFrame(app: try reader.string(app, what: "an app name"),
                                       Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])))]
        case "resize":
            let fields = try reader.mapping(value, what: "the resize", allowed: ["app", "size", "live"])
            guard let app = fields["app"], let size = fields["size"] else { throw reader.fail(value, "expected { app: NAME, size: [WIDTH, HEIGHT], live: STEPS }") }
            let numbers = try reader.sequence(size, what: "width, height").map { try reader.number($0, what: "a number of points", range: 1...100_000) }
            guard numbers.count == 2 else { throw reader.fail(size, "expected [WIDTH, HEIGHT]") }
            let live = try fields["live"].map { Int(try reader.number($0, what: "the live resize's steps", range: 1...1000)) }
            return [.resize(app: try reader.string(app, what: "an app name"), Size(width: numbers[0], height: numbers[1]), live: live)]
        case "raise":
            return [.command(.raise(app: try reader.string(value, what: "an app name")))]
        case "display":
            let fields = try reader.mapping(value, what: "a display step (connect: PROFILE, disconnect: ID, or move: APP with to: ID)",
                                            allowed: ["connect", "disconnect", "move", "to"])
            if let profile = fields["connect"], fields.count == 1 {
                let name = try reader.string(profile, what: "a display profile")
                let known = ExternalScreen.profiles.map(\.profile)
                guard known.contains(name) else {
                    throw reader.fail(profile, "unknown display profile '\(name)'; \(Suggestion.phrase(name, among: known))expected one of: \(known.joined(separator: ", "))")
                }
                return [.command(.connectDisplay(profile: name))]
            }
            if let id = fields["disconnect"], fields.count == 1 { return [.command(.disconnectDisplay(id: try reader.string(id, what: "a display id")))] }
            if let app = fields["move"], let to = fields["to"], fields.count == 2 {
                return [.command(.moveToDisplay(app: try reader.string(app, what: "an app name"), display: try reader.string(to, what: "a display id")))]
            }
            throw reader.fail(value, "expected { connect: PROFILE }, { disconnect: ID } or { move: APP, to: ID }")
        default:  // tile
            let fields = try reader.mapping(value, what: "the tile", allowed: ["app", "position"])
            guard let app = fields["app"], let position = fields["position"] else { throw reader.fail(value, "expected { app: NAME, position: POSITION }") }
            return [.command(.tile(app: try reader.string(app, what: "an app name"),
                                   try reader.choice(position, what: "tile position", TilePosition.self)))]
        }
    }

    /// What a `set:` step (and a matrix) may set: device, orientation, arrangement, windowing, keyboard, or a
    /// setting's word.
    static let setWords = SetWord.all.map(\.word)

    /// The command that sets `key` (one of `setWords`) to the value in `field`.
    static func setCommand(_ key: String, _ field: Node, _ reader: YAMLReader) throws -> Step {
        guard let word = SetWord(word: key) else { throw reader.fail(field, "cannot set '\(key)'") }
        switch word {
        case .device: return .command(.setDevice(try reader.device(field)))
        case .orientation: return .command(.rotate(try reader.choice(field, what: "orientation", Orientation.self)))
        case .arrangement: return .command(.setArrangement(try reader.choice(field, what: "arrangement", Arrangement.self)))
        case .windowing: return .command(.setWindowing(try reader.choice(field, what: "windowing mode", Windowing.self)))
        case .keyboard: return .command(.setKeyboard(try reader.choice(field, what: "keyboard mode", KeyboardMode.self)))
        case .setting(let trait): return .command(.setTraits([trait: try reader.value(field, of: trait)]))
        }
    }

    /// A command in the scenario file's words, for the trace's step lines.
    static func describe(_ command: Command) -> String {
        switch command {
        case .setDevice(let id): return "set device \(id)"
        case .rotate(let o): return "set orientation \(o)"
        case .setArrangement(let a): return "set arrangement \(a)"
        case .setWindowing(let mode): return "set windowing \(mode)"
        case .setTraits(let changes):
            return "set " + DisplayTrait.all.compactMap { trait in changes[trait].map { "\(trait.word) \($0)" } }.joined(separator: " ")
        case .openApp(let app, let role): return "open \(app) as \(role)"
        case .closeApp(let app): return "close \(app)"
        case .beginDividerDrag: return "drag begin"
        case .moveDivider(let x): return "drag to \(x.compact)"
        case .endDividerDrag: return "drag end"
        case .setFrame(let app, let f): return "frame \(app) \(f.x.compact) \(f.y.compact) \(f.width.compact) \(f.height.compact)"
        case .tile(let app, let position): return "tile \(app) \(position)"
        case .raise(let app): return "raise \(app)"
        case .beginResize(let app): return "resize \(app) begin"
        case .resizeTo(let app, let size): return "resize \(app) to \(size.width.compact) x \(size.height.compact)"
        case .endResize(let app): return "resize \(app) end"
        case .connectDisplay(let profile): return "connect \(profile)"
        case .disconnectDisplay(let id): return "disconnect \(id)"
        case .moveToDisplay(let app, let display): return "move \(app) to \(display)"
        case .restore(let state): return "restore \(state.device) \(state.orientation)"
        case .setKeyboard(let mode): return "set keyboard \(mode)"
        case .setSizeRestrictions(let app, let r): return "declare \(app) size \(r)"
        case .setSupportedOrientations(let app, let o): return "declare \(app) orientations \(o.map(\.rawValue).joined(separator: " "))"
        case .requestGeometryUpdate(let app, _): return "request \(app) geometry"
        case .setBreakpoints(let app, let b): return "declare \(app) breakpoints " + b.keys.sorted().joined(separator: " ")
        case .setTraitOverrides(let app, let r):
            return "declare \(app) overrides " + (r.system.keys.map(\.name) + r.custom.keys).sorted().joined(separator: " ")
        }
    }
}
