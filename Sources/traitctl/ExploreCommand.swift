import ArgumentParser
import Foundation
import RunReport
import Spawn
import TraitConfig
import Vocabulary

/// `traitctl explore`: a random walk through what a person does with the simulated device, checked after every
/// step (each transition completes, no adapter misses or fails, no layout problem); the first failing walk is
/// shrunk to a shortest one that still fails and written as a scenario with its golden trace.
///
/// traitctl starts the private bus, `traitd --testing` (whose `Reset` starts every walk from the configuration's
/// start) and the adapter host, then hands over to the Python package's explorer (`python3 -m traitd.explore`):
/// the walks and their shrinking are Hypothesis's (`@given` over a list of moves, `@seed`), a maintained
/// shrinker rather than one written here. The moves it draws from are this file's: the vocabulary's own cases,
/// passed as JSON, so that Python repeats none of it.
struct Explore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Walk at random through devices, rotations, arrangements, windows and settings; shrink the first failure to a scenario.",
        discussion: """
            After every step: each transition completes, no adapter misses or fails, no window has a layout \
            problem. On the first failure the walk is shrunk (Hypothesis) to a shortest one that still fails, \
            written as DIR/failure.yaml (a strict scenario naming the adapters it ran with) and DIR/failure.trace \
            (its golden trace), the problem is printed, and traitctl exits 1; 0 after the steps with none. The \
            same seed gives the same walk. Needs python3 with Hypothesis (Debian's python3-hypothesis) and \
            dbus-fast, and the traitd Python package (found beside an installed traitctl, in a source tree, or on \
            PYTHONPATH).
            """)

    @Flag(help: "Explore on a private bus with a daemon and an adapter host of its own (required: every walk starts with Reset).")
    var `private` = false
    @Option(help: "The seed: the same seed gives the same walk.") var seed: UInt32 = 0
    @Option(help: "How many steps to take in all, across walks, before stopping with no failure.") var steps = 200
    @Option(help: "The longest walk (a walk starts from the configuration's start).") var walk = 30
    @Option(help: ArgumentHelp("Where to write failure.yaml and failure.trace.", valueName: "dir")) var out: String
    @Option(help: ArgumentHelp("A folder of *.layout files to explore (repeatable).", valueName: "dir")) var layouts: [String] = []
    @Flag(help: "Run the built-in adapters (and the embedded layout files) too.") var adapters = false
    @Option(help: "Milliseconds a transition waits for its adapters (a miss is a failure).") var deadlineMs = 5000
    @Option(help: "The Python interpreter (default: the one whose traitd package started this traitctl, as the wheel's command does; else Debian's /usr/bin/python3, whose python3-hypothesis and python3-dbus-fast it uses; else python3 on PATH).")
    var python: String?
    @Flag(help: "Print what is started and stopped on stderr.") var verbose = false
    @Option(help: ArgumentHelp("The layout problems already known (APP RULE ELEMENT a line, as scenario run --baseline reads): a walk meeting only these has found nothing.",
                               valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write a report of the shrunk failure to this folder (DIR/index.html): its steps, signals, pictures and problems, as scenario run --report writes one.",
                               valueName: "dir"))
    var report: String?

    func validate() throws {
        guard `private` else {
            throw ValidationError("explore runs on a private bus (--private): it resets the daemon before every walk")
        }
        guard adapters || !layouts.isEmpty else {
            throw ValidationError("nothing to explore: give --layouts DIR (your layout files) or --adapters (the built-in ones)")
        }
        guard (1...1_000_000).contains(steps) else { throw ValidationError("--steps takes 1 to 1000000; got \(steps)") }
        guard (1...1000).contains(walk) else { throw ValidationError("--walk takes 1 to 1000; got \(walk)") }
        guard (100...600_000).contains(deadlineMs) else { throw ValidationError("--deadline-ms takes 100 to 600000; got \(deadlineMs)") }
        for dir in layouts {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--layouts \(dir): no such directory")
            }
        }
    }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let folders = layouts.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let daemon = PrivateTraitd(verbose: verbose)
        daemon.extraEnvironment["PYTHONPATH"] = Self.pythonPath()
        let status: Int32
        do {
            let config = daemon.folder.appendingPathExtension("explore.yaml")
            try "transitions: { deadline-ms: \(deadlineMs) }\n".write(to: config, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: config) }
            let moves = daemon.folder.appendingPathExtension("moves.json")
            try Self.moves().write(to: moves)
            defer { try? FileManager.default.removeItem(at: moves) }
            let host = PrivateTraitd.hostArguments(builtIns: adapters, layouts: folders)
            try await daemon.start(config: config.path, adapters: true, device: nil, hostArguments: host,
                                   daemonArguments: ["--testing"])
            let interpreter = python ?? ProcessInfo.processInfo.environment["TRAITD_PYTHON"]
                ?? (FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3")
            var command = [interpreter, "-m", "traitd.explore", "--bus", daemon.address, "--moves", moves.path,
                           "--seed", String(seed), "--steps", String(steps), "--walk", String(walk), "--out", out,
                           "--traitctl", Spawn.besideThisExecutable("traitctl")]
            command += folders.flatMap { ["--layouts", $0] }
            if adapters { command.append("--adapters") }
            if let baseline { command += ["--baseline", URL(fileURLWithPath: baseline).standardizedFileURL.path] }
            status = try daemon.runCommand(command)
        } catch {
            daemon.stop()
            FileHandle.standardError.write(Data("traitctl explore: \(Failure(error).description)\n".utf8))
            throw ExitCode(125)
        }
        daemon.stop()
        // A failure found (1), or found but not failing again on its own (2): its scenario is the report.
        if let report, !writeReport(report, found: status != 0) { throw ExitCode(status == 0 ? 1 : status) }
        throw ExitCode(status)
    }

    /// The report of the walk: the shrunk failure run again as its scenario (`scenario run --report`, on a
    /// daemon of its own, checked against its trace), or a report of no run that says nothing failed.
    /// Returns whether it was written (else it said why, on stderr).
    private func writeReport(_ report: String, found: Bool) -> Bool {
        let scenario = "\(out)/failure.yaml", trace = "\(out)/failure.trace"
        do {
            guard found, FileManager.default.fileExists(atPath: scenario) else {
                try ReportFolder(report, fresh: true).write(Report(title: "traitctl explore --seed \(seed): no failure in \(steps) steps", runs: []))
                print("wrote \(report)/index.html (no failure to show)")
                return true
            }
            _ = try ReportFolder(report, fresh: true)  // refused here, with its reason, before the run
            let child = try Child(Spawn.besideThisExecutable("traitctl"),
                                  ["scenario", "run", scenario, "--private", "--check", trace, "--report", report],
                                  environment: ProcessInfo.processInfo.environment, output: .inherit, ownGroup: false)
            _ = child.wait()
            return FileManager.default.fileExists(atPath: "\(report)/index.html")
        } catch {
            FileHandle.standardError.write(Data("traitctl explore: \(error)\n".utf8))
            return false
        }
    }

    /// The moves a walk draws from, as JSON: every value of each choice, from the vocabulary's own cases.
    static func moves() throws -> Data {
        struct Setting: Encodable {
            let word: String
            let property: String
            let values: [String]
            let flag: Bool
        }
        struct Moves: Encodable {
            let orientations = Orientation.allCases.map(\.rawValue)
            let arrangements = Arrangement.allCases.map(\.rawValue)
            let windowing = Windowing.allCases.map(\.rawValue)
            let roles = Role.allCases.map(\.rawValue)
            let tiles = TilePosition.allCases.map(\.rawValue)
            let settings = DisplayTrait.all.map { Setting(word: $0.word, property: $0.property, values: $0.values, flag: $0.isFlag) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Moves())
    }

    /// Where the traitd Python package may be: installed beside traitctl (`make install` puts it under
    /// share/traitd/python), or in the source tree traitctl was built in; then the caller's own PYTHONPATH.
    static func pythonPath() -> String {
        let executable = URL(fileURLWithPath: Spawn.besideThisExecutable("traitctl")).deletingLastPathComponent()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent("share/traitd/python").path]
        var folder = executable
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("clients/python").path)
            folder.deleteLastPathComponent()
        }
        let found = candidates.filter { FileManager.default.fileExists(atPath: $0 + "/traitd/explore.py") }
        let inherited = ProcessInfo.processInfo.environment["PYTHONPATH"].map { [$0] } ?? []
        return (found.prefix(1) + inherited).joined(separator: ":")
    }
}
