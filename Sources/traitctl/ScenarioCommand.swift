import ArgumentParser
import DBus
import Foundation
import TraitClient
import TraitConfig
import TraitModel

/// `traitctl scenario run FILE`: runs a scenario (`Scenario`) and prints its trace, or checks it against a
/// golden trace (`--check`, a readable diff and exit 1 when they differ), or rewrites that trace (`--update`).
struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario", abstract: "Run a scenario file and record, check or update its golden trace.",
        subcommands: [RunScenario.self])

    struct RunScenario: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run a scenario and print its trace; --check compares it with a golden trace, --update rewrites one.",
            discussion: """
                The trace has a line per step (# STEP) and then every signal the step caused, as traitctl watch \
                prints them but normalised: no timestamps, no bus names; each window's TransitionCompleted last, \
                in id order (adapters report in their own time); then the layouts each window's adapters reported \
                for the final state, and their layout problems. --private runs it against a bus and a daemon of \
                its own (traitd --no-state, and the adapter host when the scenario says adapters: true or names \
                layouts: folders, web: pages or apps: desktop apps), which is what makes a trace reproducible (its transitions wait 60 s for the \
                adapters' reports, never less); without it, against the daemon on --bus. Exit 0 when the run \
                matches (or no check), 1 when it differs or, in a strict: true scenario, when a step's adapter \
                missed or failed or a layout has a problem (the trace is still written), 65 for a scenario file error.
                """)
        @Argument(help: "The scenario file (YAML).") var file: String
        @OptionGroup var options: BusOptions
        @Flag(help: "Run on a private bus with a daemon of its own (reproducible).") var `private` = false
        @Option(help: ArgumentHelp("Compare with this golden trace.", valueName: "trace")) var check: String?
        @Option(help: ArgumentHelp("Write the trace to this golden file.", valueName: "trace")) var update: String?
        @Option(help: "Seconds the whole run may take (default 120).") var timeout: Double = 120

        func validate() throws {
            if check != nil && update != nil { throw ValidationError("give --check or --update, not both") }
        }

        func run() async throws {
            let scenario: Scenario
            do {
                guard let data = FileManager.default.contents(atPath: file) else { throw ConfigError(file: file, line: 1, column: 1, message: "cannot read the file") }
                scenario = try Scenario.parse(String(decoding: data, as: UTF8.self), file: file)
            } catch let error as ConfigError {
                FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                throw ExitCode(65)
            }
            let trace: String
            let failures: [String]
            do {
                (trace, failures) = try await record(scenario)
            } catch let error as ExitCode {
                throw error
            } catch {
                FileHandle.standardError.write(Data("traitctl: scenario \(file): \(Failure(error).description)\n".utf8))
                throw ExitCode(1)
            }
            if let update {
                try trace.write(toFile: update, atomically: true, encoding: .utf8)
                print("wrote \(update) (\(trace.split(separator: "\n").count) lines)")
            } else if let check {
                guard let data = FileManager.default.contents(atPath: check) else {
                    FileHandle.standardError.write(Data("traitctl: cannot read the golden trace \(check); write it with --update\n".utf8))
                    throw ExitCode(1)
                }
                let golden = String(decoding: data, as: UTF8.self)
                guard golden == trace else {
                    print("\(file): the run differs from \(check) (- golden, + this run):")
                    print(TraceDiff.lines(golden, trace))
                    throw ExitCode(1)
                }
                print("\(file): matches \(check)")
            } else {
                print(trace, terminator: "")
            }
            if scenario.strict, let first = failures.first {
                FileHandle.standardError.write(Data("traitctl: scenario \(file) (strict): \(first)\n".utf8))
                throw ExitCode(1)
            }
        }

        /// Starts a private daemon when asked, runs the scenario and returns its trace and what went wrong in it.
        private func record(_ scenario: Scenario) async throws -> (String, [String]) {
            guard `private` else {
                return try await options.withClient { try await ScenarioRecorder(client: $0, timeout: timeout).trace(scenario) }
            }
            let daemon = PrivateTraitd(verbose: false)
            defer { daemon.stop() }
            // Adapters' reports, not a deadline on a busy machine, end every transition: the trace stays the same.
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("traitctl-scenario-\(getpid()).yaml")
            try "transitions: { deadline-ms: 60000 }\n".write(to: config, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: config) }
            // A scenario's layout folders and page paths are relative to its own folder.
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            let host = PrivateTraitd.hostArguments(
                builtIns: scenario.adapters,
                layouts: scenario.layouts.map { $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path },
                web: scenario.web.sorted(by: { $0.key < $1.key }).map { app, page in
                    (app, page.contains("://") ? page
                        : "file://" + (page.hasPrefix("/") ? page : folder.appendingPathComponent(page).standardizedFileURL.path))
                },
                apps: scenario.apps.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) })
            try await daemon.start(config: config.path, adapters: scenario.adapters || !host.isEmpty, device: nil,
                                   hostArguments: host)
            let client = try TraitClient(bus: .address(daemon.address))
            defer { client.close() }
            return try await ScenarioRecorder(client: client, timeout: timeout).trace(scenario)
        }
    }
}

/// Runs a scenario's steps against a daemon, each after the last one's transitions completed, and writes what
/// each caused as normalised trace lines.
struct ScenarioRecorder {
    let client: TraitClient
    let timeout: Double

    /// The trace and what went wrong in it (a line for each step with an adapter missed or failed, or a layout
    /// problem after it), or a `RunError` when the run takes longer than `timeout` seconds (a step whose
    /// transitions never complete): the run is cancelled, which ends its wait for the next signal.
    func trace(_ scenario: Scenario) async throws -> (String, [String]) {
        try await withThrowingTaskGroup(of: (String, [String])?.self) { group in
            group.addTask { try await self.run(scenario) }
            group.addTask { [timeout] in
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let trace = first else {
                throw RunError("the scenario did not finish in \(timeout.compact) s (a step's transitions never completed)")
            }
            return trace
        }
    }

    private func run(_ scenario: Scenario) async throws -> (String, [String]) {
        let log = try await client.eventLog()
        defer { log.close() }
        // The start (not traced): the device and orientation, their transitions completed.
        var setup: [Scenario.Step] = [.command(.setDevice(scenario.device))]
        if let orientation = scenario.orientation { setup.append(.command(.rotate(orientation))) }
        for step in setup { _ = try await perform(step, log) }
        var lines = ["# start: \(scenario.device)" + (scenario.orientation.map { " \($0)" } ?? "")]
        var failures: [String] = []
        for (number, step) in scenario.steps.enumerated() {
            lines.append("# \(step.title)")
            let events = try await perform(step, log)
            lines += Self.normalised(events)
            let (layoutLines, problems) = try await layouts()
            lines += layoutLines
            let where_ = "step \(number + 1) (\(step.title))"
            // A transition another one of the same window overtook within the step (a divider drag's snapshot
            // at each size it passes) completes at once with its adapters missed, by traitd's rule: only a
            // window's last transition of the step counts its misses (as traitctl explore counts them).
            var last: [String: UInt64] = [:]
            for event in events { if let app = event.app, let id = event.transition { last[app] = max(last[app] ?? 0, id) } }
            for case .transitionCompleted(let app, let id, let outcome) in events {
                let missed = last[app] == id ? outcome.missed : []
                guard !missed.isEmpty || !outcome.failed.isEmpty else { continue }
                failures.append("\(where_): \(app) transition \(id) missed [\(missed.joined(separator: ","))] "
                                + "failed [\(outcome.failed.joined(separator: ","))]")
            }
            failures += problems.map { "\(where_): layout problem: \($0)" }
        }
        return (lines.joined(separator: "\n") + "\n", failures)
    }

    /// Sends the step and returns its signals: those the daemon sent before its reply (in the log once the call
    /// has returned, see `EventLog`), and the completions of the transitions the reply named.
    private func perform(_ step: Scenario.Step, _ log: EventLog) async throws -> [TraitEvent] {
        let ids = Set(try await send(step))
        await log.wait { events in
            ids.isSubset(of: events.compactMap { if case .transitionCompleted(_, let id, _) = $0 { id } else { nil } })
        }
        try Task.checkCancellation()
        return log.take()
    }

    private func send(_ step: Scenario.Step) async throws -> [UInt64] {
        switch step {
        case .restore(let app, let state):
            try await client.setRestorationState(state.mapValues(Restore.value), for: app)
            return []
        case .command(let command):
            switch command {
            case .setDevice(let id): return try await client.setDevice(id)
            case .rotate(let orientation): return try await client.rotate(to: orientation)
            case .setArrangement(let arrangement): return try await client.setArrangement(arrangement)
            case .setTraits(let changes): return try await client.setTraits(changes)
            case .setWindowing(let mode): return try await client.setWindowing(mode)
            case .openApp(let app, let role): return try await client.openApp(app, role: role).transitions
            case .closeApp(let app): return try await client.closeApp(app)
            case .beginDividerDrag: return try await client.beginDividerDrag()
            case .moveDivider(let x): return try await client.moveDivider(to: x)
            case .endDividerDrag: return try await client.endDividerDrag()
            case .setFrame(let app, let frame): return try await client.setFrame(frame, of: app)
            case .tile(let app, let position): return try await client.tile(app, position)
            case .raise(let app): return try await client.raise(app)
            case .beginResize(let app): return try await client.beginResize(app)
            case .resizeTo(let app, let size): return try await client.resize(app, to: size)
            case .endResize(let app): return try await client.endResize(app)
            case .connectDisplay(let profile): _ = try await client.connectDisplay(profile); return []
            case .disconnectDisplay(let id): return try await client.disconnectDisplay(id)
            case .moveToDisplay(let app, let display): return try await client.move(app, toDisplay: display)
            case .restore: return []  // the Testing interface's; the scenario parser makes none
            }
        }
    }

    /// The adapters' layouts of every window after the step, one line a window and adapter, then the layout
    /// checks' problems, one line each; and those problems as `APP ADAPTER ELEMENT RULE: MESSAGE`.
    private func layouts() async throws -> ([String], [String]) {
        let state = try await client.state()
        let problems = state.windows.flatMap { window in window.layoutProblems.map { "\(window.app) \($0)" } }
        return (state.windows.flatMap { window in
            window.layouts.keys.sorted().map { adapter in
                let frames = window.layouts[adapter]!
                return "layouts \(window.app) \(adapter): " + frames.keys.sorted().map { name in
                    let f = frames[name]!
                    return "\(name)=(\(f.x.compact),\(f.y.compact),\(f.width.compact),\(f.height.compact))"
                }.joined(separator: " ")
            } + window.layoutProblems.map { "problem \(window.app) \($0)" }
        }, problems)
    }

    /// The step's signals as trace lines: `traitctl watch`'s lines without the layouts' and registrations'
    /// property changes (adapters report in their own time; the final layouts follow the step), with every
    /// TransitionCompleted moved last, in id order.
    static func normalised(_ events: [TraitEvent]) -> [String] {
        let window = Layout1.Window.self
        let timed: Set<String> = [window.layouts.name, window.layoutExtras.name, window.layoutProblems.name, window.adapters.name]
        var lines: [String] = []
        var completions: [(UInt64, String)] = []
        for event in events {
            switch event {
            case .transitionCompleted(_, let id, _):
                completions.append((id, event.description))
            case .windowChanged(let app, let changes):
                let kept = changes.removing(timed)
                if !kept.names.isEmpty { lines.append(TraitEvent.windowChanged(app: app, kept).description) }
            default:
                lines.append(event.description)
            }
        }
        return lines + completions.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// A line diff of two texts (the longest common subsequence): `-` for a golden line this run lacks, `+` for a
/// line this run adds, two spaces for the lines around them.
enum TraceDiff {
    static func lines(_ old: String, _ new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var common = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var out: [String] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                out.append("  " + a[i]); i += 1; j += 1
            } else if i < a.count, j == b.count || common[i + 1][j] >= common[i][j + 1] {
                out.append("- " + a[i]); i += 1
            } else {
                out.append("+ " + b[j]); j += 1
            }
        }
        // Only the changes and two lines of context around each.
        let changed = out.indices.filter { !out[$0].hasPrefix("  ") }
        let shown = Set(changed.flatMap { max(0, $0 - 2)...min(out.count - 1, $0 + 2) })
        return out.indices.filter(shown.contains).map { out[$0] }.joined(separator: "\n")
    }
}
