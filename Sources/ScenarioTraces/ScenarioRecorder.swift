import DBus
import FoundationEssentials
import TraitClient
import TraitConfig
import TraitModel
import Vocabulary

/// Runs a scenario's steps against a daemon, each after the last one's transitions completed, and writes what
/// each caused as normalised trace lines.
public struct ScenarioRecorder: Sendable {
    let client: TraitClient
    let timeout: Double
    /// Whether the run keeps each step's signals, state and windows' pictures (`ScenarioRun.steps`), for a
    /// report.
    let keepsSteps: Bool

    /// Records on `client`'s daemon; a run that takes longer than `timeout` seconds is given up.
    public init(client: TraitClient, timeout: Double, keepsSteps: Bool = false) {
        self.client = client
        self.timeout = timeout
        self.keepsSteps = keepsSteps
    }

    /// The trace and what went wrong in it, or a `ScenarioRunError` when the run takes longer than `timeout`
    /// seconds (a step whose transitions never complete): the run is cancelled, which ends its wait for the next
    /// signal.
    public func trace(_ scenario: Scenario) async throws -> ScenarioRun {
        try await withThrowingTaskGroup(of: ScenarioRun?.self) { group in
            group.addTask { try await self.run(scenario) }
            group.addTask { [timeout] in
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let trace = first else {
                throw ScenarioRunError("the scenario did not finish in \(timeout.compact) s (a step's transitions never completed)")
            }
            return trace
        }
    }

    private func run(_ scenario: Scenario) async throws -> ScenarioRun {
        let log = try await client.eventLog()
        defer { log.close() }
        // The start (not traced): the device and orientation, their transitions completed.
        var setup: [Scenario.Step] = [.command(.setDevice(scenario.device))]
        if let orientation = scenario.orientation { setup.append(.command(.rotate(orientation))) }
        var setupEvents: [TraitEvent] = []
        for step in setup { setupEvents += try await perform(step, log) }
        var lines = ["# start: \(scenario.device)" + (scenario.orientation.map { " \($0)" } ?? "")]
        var failures: [String] = []
        var found: [ScenarioRun.Problem] = []
        var pictures: [ScenarioRun.Picture] = []
        var steps: [ScenarioRun.Step] = []
        let takesPictures = scenario.screenshots || keepsSteps
        // A scenario of no steps (a matrix's combination) is its start: the layouts there are its trace.
        if scenario.steps.isEmpty {
            // Adapters first report the window as it is when they register, in their own time: wait for each
            // (a failed report counts: it has no frames, and a wait for frames once never ended).
            while try await client.state().windows.contains(where: { !$0.reportedAdapters.isSuperset(of: $0.adapters) }) {
                try await Task.sleep(for: .milliseconds(20))
            }
            let (layoutLines, problems) = try await layouts(aria: scenario.aria)
            lines += layoutLines
            found += problems.map { ScenarioRun.Problem(step: "the start", app: $0.app, problem: $0.problem) }
            if takesPictures { pictures += try await self.pictures(step: 0, title: "the start") }
            for window in try await client.state().windows {
                failures += window.failures.sorted(by: { $0.key < $1.key }).map { "the start: \(window.app) \($0.key) failed: \($0.value)" }
            }
        }
        if keepsSteps { steps.append(ScenarioRun.Step(number: 0, title: "the start", events: setupEvents, state: try await client.state())) }
        for (number, step) in scenario.steps.enumerated() {
            lines.append("# \(step.title)")
            let events: [TraitEvent]
            do {
                events = try await perform(step, log)
            } catch let error as DBusError {
                // A refused step: which one, and where it is written.
                let line = number < scenario.stepLines.count ? ", line \(scenario.stepLines[number])" : ""
                throw DBusError(error.name, "step \(number + 1) (\(step.title)\(line)): \(error.message)")
            }
            let signals = Self.normalised(events)
            lines += signals
            let (layoutLines, problems) = try await layouts(aria: scenario.aria)
            lines += layoutLines
            let where_ = "step \(number + 1) (\(step.title))"
            if takesPictures { pictures += try await self.pictures(step: number + 1, title: where_) }
            if keepsSteps { steps.append(ScenarioRun.Step(number: number + 1, title: step.title, events: events, signals: signals, state: try await client.state())) }
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
            found += problems.map { ScenarioRun.Problem(step: where_, app: $0.app, problem: $0.problem) }
        }
        return ScenarioRun(trace: lines.joined(separator: "\n") + "\n", failures: failures, problems: found, pictures: pictures, steps: steps)
    }

    /// Sends the step and returns its signals: those the daemon sent before its reply (in the log once the call
    /// has returned, see `EventLog`), and the completions of the transitions the reply named.
    private func perform(_ step: Scenario.Step, _ log: EventLog) async throws -> [TraitEvent] {
        await Self.completed(try await send(step, log), in: log)
        try Task.checkCancellation()
        return log.take()
    }

    /// Returns once every transition of `ids` has its `TransitionCompleted` among the events `log` holds (the log
    /// is open before the calls that named them, so no completion can come first).
    private static func completed(_ ids: [UInt64], in log: EventLog) async {
        let pending = Set(ids)
        await log.wait { events in
            pending.isSubset(of: events.compactMap { if case .transitionCompleted(_, let id, _) = $0 { id } else { nil } })
        }
    }

    /// Sends the step's call (or calls); `log` is the step's, for a step whose calls each wait for the one before.
    private func send(_ step: Scenario.Step, _ log: EventLog) async throws -> [UInt64] {
        switch step {
        case .restore(let app, let state):
            try await client.setRestorationState(state.mapValues(TextValue.value), for: app)
            return []
        case .resize(let app, let size, let live):
            guard let frame = try await client.state().windows.first(where: { $0.app == app })?.frame else {
                throw ScenarioRunError("resize \(app): \(app) has no window")
            }
            guard let steps = live else {
                return try await client.setFrame(Rect(x: frame.x, y: frame.y, width: size.width, height: size.height), of: app)
            }
            // As traitctl resize --live: the steps from the size it has to the one asked, then the end, each after
            // the one before has completed (the trace must not hang on how steps coalesce).
            var started = try await client.beginResize(app)
            await Self.completed(started, in: log)
            for step in 1...steps {
                let t = Double(step) / Double(steps)
                started += try await client.resize(app, to: Size(width: frame.width + (size.width - frame.width) * t,
                                                                 height: frame.height + (size.height - frame.height) * t))
                await Self.completed(started, in: log)
            }
            return started + (try await client.endResize(app))
        case .width(let app, let width):
            let state = try await client.state()
            guard let window = state.windows.first(where: { $0.app == app }) else {
                throw ScenarioRunError("a matrix's width for \(app): \(app) has no window")
            }
            // One frame, its height kept, moved left as far as the new width needs to stay on screen (a live
            // resize step, as this once sent, is refused outside BeginResize and EndResize).
            let frame = window.frame
            let x = max(0, min(frame.x, state.screenSize.width - width))
            return try await client.setFrame(Rect(x: x, y: frame.y, width: width, height: frame.height), of: app)
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
            case .setKeyboard(let mode): return try await client.setKeyboard(mode)
            case .setSizeRestrictions, .setSupportedOrientations, .requestGeometryUpdate, .setBreakpoints, .setTraitOverrides:
                return []  // an app's own calls (an adapter's connection); the scenario parser makes none
            case .restore: return []  // the Testing interface's; the scenario parser makes none
            }
        }
    }

    /// The adapters' layouts of every window after the step, one line a window and adapter, then (with `aria`)
    /// each adapter's accessibility snapshot as `aria APP ADAPTER:` and its lines indented two spaces, then the
    /// layout checks' problems, one line each; and those problems as `APP ADAPTER ELEMENT RULE: MESSAGE`.
    private func layouts(aria: Bool) async throws -> ([String], [(app: String, problem: LayoutProblem)]) {
        let state = try await client.state()
        let problems = state.windows.flatMap { window in window.layoutProblems.map { (app: window.app, problem: $0) } }
        return (state.windows.flatMap { window in
            window.layouts.keys.sorted().map { adapter in
                let frames = window.layouts[adapter]!
                return "layouts \(window.app) \(adapter): " + frames.keys.sorted().map { name in
                    let f = frames[name]!
                    return "\(name)=(\(f.x.compact),\(f.y.compact),\(f.width.compact),\(f.height.compact))"
                }.joined(separator: " ")
            } + (aria ? window.ariaSnapshots.sorted(by: { $0.key < $1.key }).flatMap { adapter, snapshot in
                ["aria \(window.app) \(adapter):"] + snapshot.split(separator: "\n").map { "  \($0)" }
            } : []) + window.layoutProblems.map { "problem \(window.app) \($0)" }
        }, problems)
    }

    /// The screenshot each window's adapter sent with its latest report (`traitd-adapters --screenshots`), read
    /// now: the bridges write the next one over it.
    private func pictures(step: Int, title: String) async throws -> [ScenarioRun.Picture] {
        try await client.state().windows.flatMap { window in
            try window.screenshots.sorted(by: { $0.key < $1.key }).map { adapter, path in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ScenarioRunError("\(title): cannot read \(window.app)'s \(adapter) screenshot \(path)")
                }
                return ScenarioRun.Picture(step: step, title: title, app: window.app, adapter: adapter, png: [UInt8](data))
            }
        }
    }

    /// The step's signals as trace lines: `traitctl watch`'s lines without the layouts' and registrations'
    /// property changes (adapters report in their own time; the final layouts follow the step), with every
    /// TransitionCompleted moved last, in id order.
    public static func normalised(_ events: [TraitEvent]) -> [String] {
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

/// What a scenario's run recorded: its trace, the steps whose adapters missed or failed, and the layout
/// problems after each step (what fails a `strict: true` scenario, or with `--baseline` those not in it).
public struct ScenarioRun: Sendable {
    public var trace: String
    /// A line for each step with an adapter missed or failed.
    public var failures: [String]
    public var problems: [Problem]

    public init(trace: String, failures: [String], problems: [Problem], pictures: [Picture] = [], steps: [Step] = []) {
        self.trace = trace
        self.failures = failures
        self.problems = problems
        self.pictures = pictures
        self.steps = steps
    }
    /// Each window's screenshot after each step, with `screenshots: true` (or when the recorder keeps steps).
    public var pictures: [Picture] = []
    /// Each step's signals and the state after it, 0 the start, when the recorder keeps steps (for a report).
    public var steps: [Step] = []

    /// A step as a report shows it: the signals it caused, the adapters that missed its transitions, and the
    /// state it left.
    public struct Step: Sendable {
        public var number: Int
        public var title: String
        public var signals: [String]
        /// app -> the adapters its window's `TransitionCompleted`s of the step name as missed.
        public var missed: [String: Set<String>]
        public var state: DisplaySnapshot

        /// The step from the events it caused, read once: its trace lines (`signals`, when the caller has
        /// them already) and its misses.
        public init(number: Int, title: String, events: [TraitEvent], signals: [String]? = nil, state: DisplaySnapshot) {
            self.number = number
            self.title = title
            self.signals = signals ?? ScenarioRecorder.normalised(events)
            var missed: [String: Set<String>] = [:]
            for case .transitionCompleted(let app, _, let outcome) in events where !outcome.missed.isEmpty {
                missed[app, default: []].formUnion(outcome.missed)
            }
            self.missed = missed
            self.state = state
        }
    }

    /// A window's picture after a step (0: the start), as its adapter sent it.
    public struct Picture: Sendable {
        public var step: Int
        public var title: String
        public var app: String
        public var adapter: String
        public var png: [UInt8]

        public init(step: Int, title: String, app: String, adapter: String, png: [UInt8]) {
            self.step = step
            self.title = title
            self.app = app
            self.adapter = adapter
            self.png = png
        }

        /// Its file's name among a trace's golden pictures: `02-notes-web.png`.
        public var fileName: String {
            (step < 10 ? "0\(step)" : "\(step)") + "-\(app)-\(adapter).png"
        }

        /// Whether `name` is one `fileName` could have written: the step's number first, `.png` last, no folder
        /// in it (what `traitctl accept` holds a report's picture names to before it writes them).
        public static func isFileName(_ name: String) -> Bool {
            name.hasSuffix(".png") && !name.contains("/") && name.first?.isNumber == true
                && name.prefix(while: \.isNumber).count >= 2 && name.dropFirst(name.prefix(while: \.isNumber).count).hasPrefix("-")
        }
    }

    /// A layout problem of `app`'s after `step` (`step 2 (rotate portrait)`, or `the start`).
    public struct Problem: Sendable, CustomStringConvertible {
        public var step: String
        public var app: String
        public var problem: LayoutProblem

        /// `step 2 (rotate portrait): layout problem: mail web header overlap: ...`.
        public var description: String { "\(step): layout problem: \(app) \(problem)" }
        /// The problem as a baseline knows it.
        public var known: ProblemBaseline.Problem { ProblemBaseline.Problem(app: app, problem) }
    }
}

/// Why a scenario's run could not go on (a step whose window is gone, a run past its time).
public struct ScenarioRunError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
