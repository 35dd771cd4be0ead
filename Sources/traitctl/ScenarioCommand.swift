import ArgumentParser
import DBus
import Foundation
import Vocabulary
import Pictures
import RunReport
import ScenarioTraces
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
                missed or failed or a layout has a problem (the trace is still written), 65 for a scenario file or \
                baseline error. --baseline FILE names the layout problems already known (APP RULE ELEMENT a line): \
                the run (strict or not) fails only on a problem not in it, and prints how many are new, known and \
                resolved; --update-baseline writes the run's problems to that file instead.
                """)
        @Argument(help: "The scenario file (YAML).") var file: String
        @OptionGroup var options: BusOptions
        @Flag(help: "Run on a private bus with a daemon of its own (reproducible).") var `private` = false
        @Option(help: ArgumentHelp("Compare with this golden trace (with --matrix: a folder of them).", valueName: "trace")) var check: String?
        @Option(help: ArgumentHelp("Write the trace to this golden file (with --matrix: a folder).", valueName: "trace")) var update: String?
        @Option(help: "Seconds the whole run may take (default 120; with --matrix, each combination's).") var timeout: Double = 120
        @Flag(help: "Run every combination of the scenario's matrix: (with --private) a daemon each, --jobs at a time.")
        var matrix = false
        @Option(help: "How many combinations run at once (default: the number of processors).") var jobs: Int?
        @Option(help: "The most combinations a matrix may run (default 256): a larger one is refused, saying how many it has.")
        var maxCombinations = 256
        @Option(help: ArgumentHelp("Draw each run's final screen, with its reported frames, on one contact sheet (PNG; .svg for SVG).",
                                   valueName: "file"))
        var sheet: String?
        @Flag(help: "Print which modes the run drove (device class, orientation, placement, size classes, settings) and which it never did.")
        var coverage = false
        @Option(help: ArgumentHelp("The layout problems already known, APP RULE ELEMENT a line: the run fails only on others.",
                                   valueName: "file"))
        var baseline: String?
        @Flag(help: "Write the run's layout problems to the --baseline file instead of checking them.") var updateBaseline = false
        @Option(help: ArgumentHelp("Write a report people look at to this folder (DIR/index.html, opened from file://): each run's steps, signals, real pixels with the reported frames, problems and differences from its goldens.",
                                   valueName: "dir"))
        var report: String?
        @Option(name: .customLong("shard"), help: ArgumentHelp("Run one shard of the matrix: I/N, the I-th of N pieces (every combination in exactly one), joined later with traitctl report merge.",
                                                           valueName: "i/n"))
        var shardText: String?

        /// `--shard`, read (`validate` refused a text that is none).
        var shard: Shard? { shardText.flatMap { try? Shard(parsing: $0) } }

        func validate() throws {
            if check != nil && update != nil { throw ValidationError("give --check or --update, not both") }
            try SecondsOption.check(timeout)
            if matrix && !`private` { throw ValidationError("--matrix runs each combination on a daemon of its own: add --private") }
            if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs takes 1 to 64; got \(jobs)") }
            if jobs != nil && !matrix { throw ValidationError("--jobs is for --matrix runs") }
            guard maxCombinations >= 1 else { throw ValidationError("--max-combinations takes a number from 1; got \(maxCombinations)") }
            if updateBaseline && baseline == nil { throw ValidationError("--update-baseline writes the --baseline file: give --baseline FILE") }
            if let shardText {
                _ = try Shard(parsing: shardText)
                if !matrix { throw ValidationError("--shard splits a matrix: add --matrix") }
            }
            if report != nil && !`private` { throw ValidationError("--report records each step's pictures and coverage on a daemon of its own: add --private") }
        }

        /// The `--baseline` file, read before anything runs (nil without one, and empty when it is to be written
        /// and does not exist yet); a file that cannot be read or parsed ends the run with 65.
        private func knownProblems() throws -> ProblemBaseline? {
            guard let baseline else { return nil }
            guard let data = FileManager.default.contents(atPath: baseline) else {
                if updateBaseline { return ProblemBaseline([]) }
                FileHandle.standardError.write(Data("traitctl: cannot read the baseline \(baseline); write it with --update-baseline\n".utf8))
                throw ExitCode(65)
            }
            do {
                return try ProblemBaseline(reading: String(decoding: data, as: UTF8.self), file: baseline)
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                throw ExitCode(65)
            }
        }

        func run() async throws {
            let scenario: Scenario
            do {
                guard let data = FileManager.default.contents(atPath: file) else { throw ConfigError(file: file, line: 1, column: 1, message: "cannot read the file") }
                // Checked against the devices there are before anything runs: traitctl's catalog for a daemon of
                // its own, the daemon's list otherwise.
                let known = try await `private`
                    ? ProfileLoader.catalog(directories: [DaemonConfig.userDeviceDirectory]).ids
                    : options.withClient { try await $0.listDevices() }
                scenario = try Scenario.parse(String(decoding: data, as: UTF8.self), file: file, knownDevices: known)
            } catch let error as ConfigError {
                FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                throw ExitCode(65)
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(Failure(error).description)\n".utf8))
                throw ExitCode(1)
            }
            if !scenario.matrix.isEmpty && !matrix {
                FileHandle.standardError.write(Data("traitctl: \(file) has a matrix: run it with --matrix --private (or remove matrix:)\n".utf8))
                throw ExitCode(64)
            }
            // Counted before any is made: a matrix of 10,000 combinations is most likely a mistake, and it would
            // otherwise start without a word.
            if matrix, (scenario.combinationCount ?? .max) > maxCombinations {
                let count = scenario.combinationCount.map { "\($0)" } ?? "\(Int.max)"
                FileHandle.standardError.write(Data("""
                    traitctl scenario run: \(file)'s matrix has \(count) combinations, more than --max-combinations \(maxCombinations); \
                    give --max-combinations \(count) to run them all, or split it with fewer values per key

                    """.utf8))
                throw ExitCode(64)
            }
            let known = try knownProblems()
            let combinations = shard.map { $0.part(of: scenario.combinations) } ?? Array(scenario.combinations.enumerated())
            let folder: ReportFolder?
            do {
                folder = try report.map { try ReportFolder($0, fresh: true) }
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                throw ExitCode(64)
            }
            let outcomes = try await matrix ? runMatrix(combinations, known: known, folder: folder)
                : [runOne(combinations[0], golden: check, write: update, known: known, folder: folder)]
            if let folder {
                do {
                    let runs = outcomes.compactMap(\.reported)
                    try folder.write(Report(title: file, coverage: try Report.coverage(of: runs), runs: runs))
                    let failed = outcomes.filter { !$0.passed }.count
                    print("wrote \(folder.path)/index.html (\(Plural.count(runs.count, "run")), \(failed) failed)")
                } catch {
                    FileHandle.standardError.write(Data("traitctl: cannot write the report \(folder.path): \(error)\n".utf8))
                    throw ExitCode(1)
                }
            }
            if coverage {
                print((CoverageTable.lines(Set(outcomes.flatMap(\.modes))) + DrivenAdaptation.lines(Set(outcomes.flatMap(\.adapted))))
                    .joined(separator: "\n"))
            }
            if let sheet {
                do {
                    try RunSheet(title: file, runs: outcomes.map { RunSheet.Run(name: $0.name, picture: $0.picture, passed: $0.passed) }).picture
                        .write(svg: sheet.hasSuffix(".svg") ? sheet : nil, png: sheet.hasSuffix(".svg") ? nil : sheet)
                    print("wrote \(sheet) (\(outcomes.count) runs)")
                } catch {
                    FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                    throw ExitCode(1)
                }
            }
            if let baseline, let known {
                let found = Set(outcomes.flatMap(\.problems))
                print(known.compare(found).report(baseline).joined(separator: "\n"))
                if updateBaseline {
                    try ProblemBaseline(found).text.write(toFile: baseline, atomically: true, encoding: .utf8)
                    print("wrote \(baseline) (\(found.count) problems)")
                }
            }
            if outcomes.contains(where: { !$0.passed }) { throw ExitCode(1) }
        }

        /// What one run came to: its trace checked or written, whether it passed, its final screen and the modes
        /// it drove.
        struct Outcome {
            let name: String
            let passed: Bool
            /// Its final screen as the contact sheet draws it (drawn when the run ends: the windows' pictures
            /// are the adapters' files, gone with their host).
            let picture: Picture?
            let modes: [DrivenMode]
            /// The window size classes and breakpoints it drove (with --coverage).
            var adapted: [DrivenAdaptation] = []
            /// Its layout problems as a baseline knows them.
            var problems: Set<ProblemBaseline.Problem> = []
            /// The run as the report shows it, with --report.
            var reported: Report.Run?
        }

        /// Runs every combination, `jobs` at a time, each against its golden trace in the `--check` folder (or
        /// writing it to `--update`'s), printing a line as each finishes, then a summary.
        private func runMatrix(_ combinations: [(offset: Int, element: Scenario.Combination)], known: ProblemBaseline?,
                               folder: ReportFolder?) async throws -> [Outcome] {
            if let update { try FileManager.default.createDirectory(atPath: update, withIntermediateDirectories: true) }
            let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
            print("\(file): \(Plural.count(combinations.count, "combination"))" + (shard.map { " (shard \($0))" } ?? "") + ", \(jobs) at a time")
            var outcomes: [Int: Outcome] = [:]
            try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
                var next = 0
                func start() {
                    guard next < combinations.count else { return }
                    let index = next, combination = combinations[index]
                    next += 1
                    group.addTask {
                        let name = "\(stem)+\(combination.element.name).trace"
                        return (index, try await runOne(combination, golden: check.map { "\($0)/\(name)" },
                                                        write: update.map { "\($0)/\(name)" }, known: known, folder: folder, quiet: true))
                    }
                }
                for _ in 0..<jobs { start() }
                while let (index, outcome) = try await group.next() {
                    outcomes[index] = outcome
                    print("[\(outcomes.count)/\(combinations.count)] \(outcome.name): \(outcome.passed ? "ok" : "FAILED")")
                    start()
                }
            }
            let ordered = combinations.indices.map { outcomes[$0]! }
            let failed = ordered.filter { !$0.passed }
            print("\(Plural.count(ordered.count, "combination")): \(ordered.count - failed.count) passed, \(failed.count) failed"
                  + (failed.isEmpty ? "" : " (\(failed.map(\.name).joined(separator: ", ")))"))
            return ordered
        }

        /// Runs one combination: its trace printed, checked against `golden` or written to `write`, its layout
        /// problems against `known` (`--baseline`). `quiet` (a matrix) prints a differing trace's diff and failures
        /// under the combination's name, not the trace.
        private func runOne(_ numbered: (offset: Int, element: Scenario.Combination), golden: String?, write: String?,
                            known: ProblemBaseline?, folder: ReportFolder?, quiet: Bool = false) async throws -> Outcome {
            let combination = numbered.element, scenario = combination.scenario
            let label = quiet ? "\(file) [\(combination.name)]" : file
            let started = ContinuousClock.now
            var failures: [String] = []
            var goldens: RecordedRun.Goldens?
            /// The run as the report shows it (nil without --report).
            func reported(_ recording: ScenarioRun, modes: [DrivenMode], passed: Bool) throws -> Report.Run? {
                guard let folder else { return nil }
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                return try RecordedRun(Report.Run(
                    id: matrix ? "\(stem)+\(combination.name)" : stem, title: matrix ? "\(file) [\(combination.name)]" : file, source: file,
                    order: numbered.offset, settings: combination.settings.map { [$0.key, $0.label] }, passed: passed, failures: failures,
                    seconds: seconds, modes: modes.sorted().map(Report.Mode.init)
                ), recording: recording, goldens: goldens).reportRun(in: folder)
            }
            let run: Recording
            do {
                run = try await record(scenario)
            } catch let error as ExitCode {
                throw error
            } catch {
                FileHandle.standardError.write(Data("traitctl: scenario \(label): \(Failure(error).description)\n".utf8))
                // The report says what happened, not the error's D-Bus name.
                failures.append((error as? DBusError)?.message ?? Failure(error).description)
                return Outcome(name: combination.name, passed: false, picture: nil, modes: [],
                               reported: try reported(ScenarioRun(trace: "", failures: [], problems: []), modes: [], passed: false))
            }
            var passed = true
            if let write {
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: write).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
                try run.trace.write(toFile: write, atomically: true, encoding: .utf8)
                if !quiet { print("wrote \(write) (\(run.trace.split(separator: "\n").count) lines)") }
                if scenario.screenshots {
                    try GoldenPictures.write(run.pictures, beside: write)
                    if !quiet { print("wrote \(GoldenPictures.folder(of: write)) (\(run.pictures.count) pictures)") }
                }
            } else if let golden {
                if let data = FileManager.default.contents(atPath: golden) {
                    let expected = String(decoding: data, as: UTF8.self)
                    if !TraceDiff.matches(golden: expected, run.trace) {
                        print("\(label): the run differs from \(golden) (- golden, + this run):")
                        print(TraceDiff.lines(expected, run.trace))
                        failures.append("the run differs from its golden trace \(golden)")
                        passed = false
                    } else if !quiet {
                        print("\(file): matches \(golden)")
                    }
                    let pictures = scenario.screenshots
                        ? GoldenPictures.check(run.pictures, beside: golden, golden: expected, run: run.trace) : []
                    if !pictures.isEmpty {
                        print("\(label): pictures differ from \(GoldenPictures.folder(of: golden)):")
                        for difference in pictures { print("  \(difference)") }
                        failures.append("\(pictures.count) pictures differ from \(GoldenPictures.folder(of: golden))")
                        passed = false
                    } else if scenario.screenshots && !quiet {
                        print("\(file): \(run.pictures.count) pictures match \(GoldenPictures.folder(of: golden))")
                    }
                    goldens = RecordedRun.Goldens(trace: golden, text: expected, pictures: pictures, keepsPictures: scenario.screenshots)
                } else {
                    FileHandle.standardError.write(Data("traitctl: cannot read the golden trace \(golden); write it with --update\n".utf8))
                    failures.append("no golden trace \(golden) (write it with --update, or traitctl accept)")
                    goldens = RecordedRun.Goldens(trace: golden, text: nil, pictures: [], keepsPictures: scenario.screenshots)
                    passed = false
                }
            } else if !quiet {
                print(run.trace, terminator: "")
            }
            // A strict scenario fails on a missed or failed adapter and on a layout problem; with a baseline, on a
            // problem not in it, strict or not (and, while the baseline is written, on none).
            let problems = run.problems.filter { problem in known.map { !updateBaseline && !$0.problems.contains(problem.known) } ?? scenario.strict }
            if let first = (scenario.strict ? run.failures : []).first ?? problems.first?.description {
                let why = known != nil && !scenario.strict ? "not in the baseline" : "strict"
                FileHandle.standardError.write(Data("traitctl: scenario \(label) (\(why)): \(first)\n".utf8))
                failures += ((scenario.strict ? run.failures : []) + problems.map(\.description)).map { "\($0) (\(why))" }
                passed = false
            }
            return Outcome(name: combination.name, passed: passed, picture: run.picture, modes: run.modes, adapted: run.adapted,
                           problems: Set(run.problems.map(\.known)), reported: try reported(run.run, modes: run.modes, passed: passed))
        }

        /// A run's trace, what went wrong in it, and (when asked for) its final screen and the modes it drove.
        struct Recording {
            /// What the recorder returned: the trace, its failures, problems, pictures and (with --report) steps.
            let run: ScenarioRun
            let picture: Picture?
            let modes: [DrivenMode]
            var adapted: [DrivenAdaptation] = []

            var trace: String { run.trace }
            var failures: [String] { run.failures }
            var problems: [ScenarioRun.Problem] { run.problems }
            var pictures: [ScenarioRun.Picture] { run.pictures }
        }

        /// Starts a private daemon when asked, runs the scenario and returns what it recorded.
        private func record(_ scenario: Scenario) async throws -> Recording {
            guard `private` else {
                return try await options.withClient { client in
                    try await checkAdapters(scenario, client)
                    return try await recording(scenario, client)
                }
            }
            let daemon = PrivateTraitd(verbose: false)
            defer { daemon.stop() }
            // Adapters' reports, not a deadline on a busy machine, end every transition: the trace stays the same.
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("traitctl-scenario-\(getpid())-\(UUID().uuidString).yaml")
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
                apps: scenario.apps.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }, aria: scenario.aria,
                // Real pixels wherever there are any to draw: the report's and the sheet's.
                screenshots: scenario.screenshots || report != nil || sheet != nil)
            // Desktop apps hear dark mode and contrast as libadwaita listens for them: from the settings portal.
            try await daemon.start(config: config.path, adapters: scenario.adapters || !host.isEmpty, device: nil, hostArguments: host,
                                   daemonArguments: (countsModes ? ["--testing"] : []) + (scenario.apps.isEmpty ? [] : ["--portal"]))
            let client = try TraitClient(bus: .address(daemon.address))
            defer { client.close() }
            return try await recording(scenario, client)
        }

        /// A scenario that names adapters (`adapters: true`, `layouts:`, `web:`, `apps:`) run against a daemon
        /// on the bus: refused when the daemon has none registered for its apps, rather than recording a trace
        /// without them.
        private func checkAdapters(_ scenario: Scenario, _ client: TraitClient) async throws {
            let named = Set(scenario.web.keys).union(scenario.apps.keys)
            guard scenario.adapters || !scenario.layouts.isEmpty || !named.isEmpty else { return }
            let registered = Set(try await client.listAdapters().map(\.app))
            let missing = named.subtracting(registered).sorted()
            guard registered.isEmpty || !missing.isEmpty else { return }
            throw RunError("\(file) needs adapters (" + (missing.isEmpty ? "adapters: true or layouts:" : "for \(missing.joined(separator: ", "))")
                + ") but the daemon on the \(options.bus) bus has none registered for "
                + (missing.isEmpty ? "any app" : "them") + ": run it with --private, or start traitd-adapters beside that daemon")
        }

        /// Whether the run asks the daemon which modes it drove (--coverage, and the report's coverage).
        private var countsModes: Bool { coverage || report != nil }

        private func recording(_ scenario: Scenario, _ client: TraitClient) async throws -> Recording {
            let run = try await ScenarioRecorder(client: client, timeout: timeout, keepsSteps: report != nil).trace(scenario)
            var picture: Picture?
            if sheet != nil {
                let state = try await client.state()
                let screens = try await DisplayList.screens(state, client)
                // Drawn now, while the adapters' pictures of the windows are there to draw.
                picture = ScreenPicture(state, externals: screens.dropFirst().map {
                    ScreenPicture.External(id: $0.id, profile: $0.profile, size: $0.size, scale: $0.scale)
                }).picture
            }
            var modes: [DrivenMode] = [], adapted: [DrivenAdaptation] = []
            if countsModes {
                modes = try await client.coverage()
                adapted = try await client.adaptationCoverage()
            }
            return Recording(run: run, picture: picture, modes: modes, adapted: adapted)
        }
    }
}

/// `--shard I/N`: the I-th of N pieces of a matrix, each combination in exactly one, as even as counts allow
/// (contiguous, as Playwright's shards are): every piece's report joined with `traitctl report merge` is the
/// whole run's.
struct Shard: CustomStringConvertible {
    let index: Int
    let count: Int

    /// `I/N`; throws what is wrong with any other text.
    init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ValidationError("--shard takes I/N, two whole numbers (1/4: the first of four pieces); got '\(text)'")
        }
        guard count >= 1, (1...count).contains(index) else {
            throw ValidationError("--shard I/N takes N from 1 and I from 1 to N; got \(text)")
        }
        self.index = index
        self.count = count
    }

    var description: String { "\(index)/\(count)" }

    /// This shard's part of `items`, each with its place in the whole.
    func part<Item>(of items: [Item]) -> [(offset: Int, element: Item)] {
        let start = items.count * (index - 1) / count, end = items.count * index / count
        return Array(items.enumerated())[start..<end].map { (offset: $0.offset, element: $0.element) }
    }
}
