import ArgumentParser
import Foundation
import Vocabulary
import RunReport
import ScenarioTraces
import TraitClient
import TraitConfig

/// `traitctl accept DIR [RUN...]`: a report's new traces and pictures taken as its runs' goldens.
struct Accept: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a report's new traces and pictures as the goldens its runs were checked against.",
        discussion: """
            DIR is a report written by scenario run --check ... --report DIR. With no RUN, every run whose trace or \
            pictures differ from its goldens; else the runs named (their ids, as the report and its accept commands \
            show them). Writes each run's trace over its golden trace and its pictures in place of the golden \
            pictures beside it, as --update would, without running anything again; nothing is written when a run \
            named is not in the report or a file of the report is missing.
            """)

    @Argument(help: ArgumentHelp("The report's folder.", valueName: "dir")) var report: String
    @Argument(help: ArgumentHelp("The runs to accept (default: every run that differs).", valueName: "run")) var runs: [String] = []
    @Flag(help: "Write over a golden that changed since the run read it.") var force = false

    func run() async throws {
        do {
            for line in try ReportAcceptance.accept(try ReportFolder(existing: report), runs: runs, force: force) { print(line) }
        } catch {
            FileHandle.standardError.write(Data("traitctl accept: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// `traitctl report merge OUT DIR...`: reports of one suite run in pieces joined.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Join reports written with --report, or add a test's end to one.", subcommands: [Merge.self, Add.self])

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join reports of one run in pieces (a matrix's shards, test workers) into one.",
            discussion: """
                Writes OUT/index.html and OUT/report.json: every run of the pieces once, in the suite's order, \
                their pictures copied once, the coverage added up. Refuses pieces that share a run (pieces of one \
                run never do).
                """)

        @Argument(help: ArgumentHelp("The merged report's folder (made when missing).", valueName: "out")) var out: String
        @Argument(help: ArgumentHelp("The reports to join.", valueName: "dir")) var pieces: [String]
        @Option(help: "The merged report's title (default: the first piece's).") var title: String?

        func validate() throws {
            if pieces.isEmpty { throw ValidationError("name the reports to join: traitctl report merge OUT DIR...") }
        }

        func run() async throws {
            do {
                let pieces = try pieces.map { try ReportFolder(existing: $0) }
                let merged = try ReportFolder.merge(pieces, into: out, title: title)
                let failed = merged.runs.filter { !$0.passed }.count
                print("wrote \(out)/index.html (\(Plural.count(merged.runs.count, "run")) from \(Plural.count(pieces.count, "report")), \(failed) failed)")
            } catch {
                FileHandle.standardError.write(Data("traitctl report merge: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}

extension ReportCommand {
    /// `traitctl report add DIR --id ID ...`: the daemon's state now, and its signals since a serial, as one run of
    /// a report: what the pytest plugin calls as each test ends (`--traitd-report`), so that a test's run is
    /// built by the same code as a scenario's.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the daemon's state now (and its signals since a serial) to a report as one run.",
            discussion: """
                Reads the daemon on --bus: every window's layouts, problems and (from adapter hosts started with \
                --screenshots) pictures, the signals since --since (its journal), and the modes it drove (traitd \
                --testing). Writes DIR/report.json and DIR/index.html with the run added (a run of the same id \
                replaced). The pytest plugin's --traitd-report calls it after each test.
                """)

        @Argument(help: ArgumentHelp("The report's folder (made when missing).", valueName: "dir")) var report: String
        @OptionGroup var options: BusOptions
        @Option(help: "The run's id: letters, digits and ._+- (a test's node id made so).") var id: String
        @Option(help: "The run's title (default: its id).") var title: String?
        @Option(help: "The file it comes from.") var source = ""
        @Option(help: "Where it comes in its suite: merged reports keep this order.") var order = 0
        @Option(help: "The daemon's serial at the run's start: its signals after it are the run's.") var since: UInt64 = 0
        @Option(help: ArgumentHelp("What the run varied, KEY=VALUE (repeatable).", valueName: "key=value")) var setting: [String] = []
        @Option(help: "Why the run failed, a line (repeatable); any makes it failed.") var failure: [String] = []
        @Option(help: "Seconds the run took.") var seconds: Double = 0
        @Option(help: "The report's title, when the report is new.") var reportTitle = "tests"

        func validate() throws {
            guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || "._+-".contains($0) }), id.allSatisfy(\.isASCII) else {
                throw ValidationError("--id takes letters, digits and ._+- only; got '\(id)'")
            }
            for pair in setting where !pair.contains("=") { throw ValidationError("--setting takes KEY=VALUE; got '\(pair)'") }
        }

        func run() async throws {
            let recording: ScenarioRun
            let modes: [DrivenMode]
            (recording, modes) = try await options.withClient { client in
                let signals = try await client.signals(since: since).past.map(TraitEvent.init)
                let state = try await client.state()
                let pictures = state.windows.flatMap { window in
                    window.screenshots.sorted { $0.key < $1.key }.compactMap { adapter, path in
                        FileManager.default.contents(atPath: path).map {
                            ScenarioRun.Picture(step: 0, title: "the end", app: window.app, adapter: adapter, png: [UInt8]($0))
                        }
                    }
                }
                let step = ScenarioRun.Step(number: 0, title: "the end of the run", events: signals, state: state)
                // The modes only where the daemon counts them (traitd --testing).
                let modes = (try? await client.coverage()) ?? []
                return (ScenarioRun(trace: "", failures: [], problems: [], pictures: pictures, steps: [step]), modes)
            }
            do {
                let folder = try ReportFolder(report)
                let run = try RecordedRun(Report.Run(
                    id: id, title: title ?? id, source: source, order: order,
                    settings: setting.map { $0.split(separator: "=", maxSplits: 1).map(String.init) }, passed: failure.isEmpty,
                    failures: failure, seconds: seconds, modes: modes.sorted().map(Report.Mode.init)
                ), recording: recording, goldens: nil).reportRun(in: folder)
                let existing = FileManager.default.fileExists(atPath: "\(report)/report.json") ? try folder.read() : nil
                var runs = existing?.runs ?? []
                let title = existing?.title ?? reportTitle
                runs.removeAll { $0.id == id }
                runs.append(run)
                runs.sort { ($0.order, $0.id) < ($1.order, $1.id) }
                try folder.write(Report(title: title, coverage: try Report.coverage(of: runs), runs: runs))
            } catch {
                FileHandle.standardError.write(Data("traitctl report add: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
