import Vocabulary

/// The rules every display state obeys, written once: the commands keep them as they change the state
/// (`Simulation.apply`), and a state from elsewhere (the state file, the configuration) must pass
/// `Simulation.problems(in:profile:windowedLimit:)` before the simulation holds it. A limit is a constant of the
/// type it limits (`Simulation.maximumApps`, `DisplayState.maximumBackgroundApps`, `ConnectedDisplay.maximum`,
/// `Simulation.windowLimit`), and the commands and the check read the same one.

/// One broken rule of a display state: the field, named as the state file names it (`displays[1].id`), and
/// what was expected there, with what was found.
public struct StateProblem: Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var expected: String

    public init(_ field: String, _ expected: String) {
        self.field = field
        self.expected = expected
    }

    public var description: String { "\(field): \(expected)" }
}

extension Simulation {
    /// Every rule `state` breaks, in the order of its fields; empty for a state the simulation can hold.
    ///
    /// - apps: valid names, each once; in Split View at most `maximumApps`, one a role, a primary under any
    ///   secondary (a PiP may float alone), a secondary for every arrangement that shows two; in a free-form
    ///   mode only windows and one PiP, each window on the stacking once with a frame, and at most
    ///   `windowLimit` on each screen's stage;
    /// - background: valid names, each once, none open, at most `DisplayState.maximumBackgroundApps`;
    /// - displays: at most `ConnectedDisplay.maximum`, each id `external-N` and its own, a known profile;
    /// - placement: only in a free-form mode, only of an open window, only on a connected display;
    /// - frames: finite numbers, a positive size;
    /// - declarations: size restrictions as `SizeRestrictions.problem(smallestWindow:on:)` has them on the
    ///   state's device, each supported orientation once.
    public static func problems(in state: DisplayState, profile: DeviceProfile, windowedLimit: Int) -> [StateProblem] {
        var problems: [StateProblem] = []
        func add(_ field: String, _ expected: String) { problems.append(StateProblem(field, expected)) }

        var seen: [String: Int] = [:]
        for (index, app) in state.apps.enumerated() {
            do { try AppName.validate(app.name) } catch { add("apps[\(index)].name", error.message) }
            if let first = seen[app.name] {
                add("apps[\(index)].name", "each app is open once; '\(app.name)' is also apps[\(first)]")
            }
            seen[app.name] = seen[app.name] ?? index
        }
        if state.windowing.isFreeForm {
            freeFormProblems(state, windowedLimit: windowedLimit, add)
        } else {
            splitViewProblems(state, add)
        }

        var background: [String: Int] = [:]
        for (index, name) in state.background.enumerated() {
            do { try AppName.validate(name) } catch { add("background[\(index)]", error.message) }
            if let first = background[name] {
                add("background[\(index)]", "each app waits in the background once; '\(name)' is also background[\(first)]")
            }
            background[name] = background[name] ?? index
            if seen[name] != nil { add("background[\(index)]", "an app in the background is not open; '\(name)' is") }
        }
        if state.background.count > DisplayState.maximumBackgroundApps {
            add("background", "at most \(DisplayState.maximumBackgroundApps) apps wait in the background; got \(state.background.count)")
        }

        if state.displays.count > ConnectedDisplay.maximum {
            add("displays", "an iPad drives at most \(ConnectedDisplay.maximum) external display; got \(state.displays.count)")
        }
        var ids: [String: Int] = [:]
        for (index, display) in state.displays.enumerated() {
            if !ConnectedDisplay.isWellFormedID(display.id) {
                add("displays[\(index)].id", "an id of the form external-N (N from 1); got '\(display.id.shortened)'")
            } else if let first = ids[display.id] {
                add("displays[\(index)].id", "each display has its own id; '\(display.id)' is also displays[\(first)]'s")
            }
            ids[display.id] = ids[display.id] ?? index
            do { _ = try ExternalScreen.named(display.profile) } catch { add("displays[\(index)].profile", error.message) }
        }

        for (name, display) in state.placement.sorted(by: { $0.key < $1.key }) {
            let field = "placement.\(name.shortened)"
            if !state.windowing.isFreeForm {
                add(field, "windows are placed on displays only in stage-manager or windowed windowing; the state is in split-view")
            } else if state.app(named: name)?.role != .window {
                add(field, "only an open window (role 'window') is placed on a display; '\(name.shortened)' is not one")
            } else if ids[display] == nil {
                let connected = ([ConnectedDisplay.device] + state.displays.map(\.id)).joined(separator: ", ")
                add(field, "a connected display (\(connected)); got '\(display.shortened)'")
            }
        }

        for (name, frame) in state.frames.sorted(by: { $0.key < $1.key }) where !DisplayState.isPlausible(frame) {
            add("frames.\(name.shortened)", "finite numbers and a positive size; got \(frame)")
        }

        // What apps declared, held to the rules `SetSizeRestrictions` and `SetSupportedOrientations` keep.
        for (name, declared) in state.declarations.sorted(by: { $0.key < $1.key }) {
            let field = "declarations.\(name.shortened)"
            if let problem = declared.sizeRestrictions?.problem(smallestWindow: profile.freeForm.minimumSize, on: profile.id) {
                add("\(field).sizeRestrictions", problem)
            }
            let orientations = declared.supportedOrientations
            if Set(orientations).count != orientations.count {
                add("\(field).supportedOrientations", "each orientation once, at most \(Orientation.allCases.count); got \(orientations.count)")
            }
        }
        return problems
    }

    /// Split View: no free windows, one app a role, the roles the arrangement needs.
    private static func splitViewProblems(_ state: DisplayState, _ add: (String, String) -> Void) {
        if state.apps.count > maximumApps {
            add("apps", "at most \(maximumApps) apps are open in split-view (primary, secondary, pip); got \(state.apps.count)")
        }
        for (index, app) in state.apps.enumerated() {
            switch app.role {
            case .slideOver:
                add("apps[\(index)].role", "a Slide Over app is saved as 'secondary' with arrangement slide-over")
            case .window:
                add("apps[\(index)].role", "role 'window' needs windowing stage-manager or windowed")
            default:
                break
            }
        }
        for role in [Role.primary, .secondary, .pip] where state.apps.filter({ $0.role == role }).count > 1 {
            add("apps", "one app holds the \(role.rawValue) role; \(state.apps.filter { $0.role == role }.count) do")
        }
        // A Picture in Picture app may float alone (its app was closed under it, as on iOS); a secondary may not.
        if state.app(holding: .secondary) != nil, state.app(holding: .primary) == nil {
            add("apps", "a secondary app is open, so one is primary; none is")
        }
        if state.arrangement.needsSecondary, state.app(holding: .secondary) == nil {
            add("arrangement", "\(state.arrangement.rawValue) shows two apps, so one is secondary; none is")
        }
    }

    /// A free-form mode: windows and one PiP, the stacking naming each window once, each screen's stage within
    /// the mode's limit (the rule `keepWithinLimit` keeps at run time).
    private static func freeFormProblems(_ state: DisplayState, windowedLimit: Int, _ add: (String, String) -> Void) {
        for (index, app) in state.apps.enumerated() where app.role != .window && app.role != .pip {
            add("apps[\(index)].role", "in \(state.windowing) windowing an app is a 'window' or 'pip'; got '\(app.role.rawValue)'")
        }
        if state.apps.filter({ $0.role == .pip }).count > 1 { add("apps", "one app holds the pip role") }
        let windows = state.apps.filter { $0.role == .window }.map(\.name)
        if Set(state.stacking) != Set(windows) || state.stacking.count != windows.count {
            add("stacking", "every open window once, front to back; got [\(state.stacking.map(\.shortened).joined(separator: ", "))]")
        }
        for name in windows where state.frames[name] == nil { add("frames", "a frame for window '\(name)'") }
        let limit = windowLimit(state.windowing, windowedLimit: windowedLimit)
        var checked: Set<String> = []  // once each, even when a (refused) display id repeats another
        for screen in state.screens where checked.insert(screen).inserted && state.stage(on: screen).count > limit {
            add("stacking", "at most \(limit) windows on the \(screen) screen's stage in \(state.windowing) windowing; "
                + "got \(state.stage(on: screen).count)")
        }
    }
}

extension DisplayState {
    /// The screens windows can be on: the device's own, then each connected display.
    public var screens: [String] { [ConnectedDisplay.device] + displays.map(\.id) }

    /// The windows on `screen`'s stage, front to back. Each screen is a stage of its own, with its own limit
    /// (Stage Manager: 4 on the iPad, 4 on a monitor).
    public func stage(on screen: String) -> [String] { stacking.filter { display(of: $0) == screen } }

    /// What a closed app leaves behind, forgotten: the frames of apps neither open nor in the background (a
    /// closed or forgotten app's frame goes with it, as its restoration state does; frames would otherwise
    /// gather in the state file for good), and the placement of an app that is no longer an open window.
    /// Every new state passes here (`Simulation.commit`), so no command has to remember it.
    mutating func forgetClosedApps() {
        if !frames.isEmpty {
            let kept = Set(apps.map(\.name) + background)
            if frames.keys.contains(where: { !kept.contains($0) }) { frames = frames.filter { kept.contains($0.key) } }
        }
        if !declarations.isEmpty {
            let kept = Set(apps.map(\.name) + background)
            if declarations.keys.contains(where: { !kept.contains($0) }) { declarations = declarations.filter { kept.contains($0.key) } }
        }
        if !placement.isEmpty {
            let windows = Set(apps.filter { $0.role == .window }.map(\.name))
            if placement.keys.contains(where: { !windows.contains($0) }) { placement = placement.filter { windows.contains($0.key) } }
        }
    }

    /// Whether `frame` can be a window's at all: finite numbers and a positive size. One that cannot is refused
    /// in a file (`problems(in:)`), never fitted to a screen.
    static func isPlausible(_ frame: Rect) -> Bool { frame.isFinite && frame.width > 0 && frame.height > 0 }
}

extension ConnectedDisplay {
    /// Whether `id` is one `ConnectDisplay` gives: `external-` and a number from 1, without leading zeros.
    public static func isWellFormedID(_ id: String) -> Bool {
        guard id.hasPrefix(idPrefix), let number = Int(id.dropFirst(idPrefix.count)), number >= 1 else { return false }
        return id == idPrefix + String(number)
    }

    /// The id the next display connected gets: the lowest `external-N` no connected display has.
    static func firstFreeID(besides connected: [ConnectedDisplay]) -> String {
        let used = Set(connected.map(\.id))
        return (1...).lazy.map { idPrefix + String($0) }.first { !used.contains($0) }!
    }

    private static let idPrefix = "external-"
}
