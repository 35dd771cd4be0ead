import FoundationEssentials
import Vocabulary

extension ReportFolder {
    /// Joins reports of one suite run in pieces (a matrix split into shards, pytest's workers) into this
    /// folder: every run once, in its suite's order, every file copied once, the coverage added up. Throws a
    /// sentence when a piece cannot be read, or when two pieces hold the same run (pieces of one run never do).
    public func merge(_ pieces: [ReportFolder], title: String? = nil) throws -> Report {
        guard !pieces.isEmpty else { throw ReportError("nothing to merge: name the reports to join") }
        var runs: [Report.Run] = []
        var from: [String: String] = [:]  // run id -> the piece it came from
        var firstTitle: String?
        for piece in pieces {
            let report = try piece.read()
            firstTitle = firstTitle ?? report.title
            for run in report.runs {
                if let other = from[run.id] {
                    throw ReportError("run \(run.id) is in both \(other) and \(piece.path): merge joins pieces of one run, each run in one piece")
                }
                from[run.id] = piece.path
                runs.append(try run.mappingFiles { file in try store(try piece.contents(of: file), as: Self.fileExtension(file)) })
            }
        }
        runs.sort { ($0.order, $0.id) < ($1.order, $1.id) }
        let merged = Report(title: title ?? firstTitle ?? "", coverage: try Report.coverage(of: runs), runs: runs)
        try write(merged)
        return merged
    }

    /// `files/NAME.png` -> `png`.
    static func fileExtension(_ file: String) -> String {
        file.split(separator: "/").last.flatMap { $0.split(separator: ".").last }.map(String.init) ?? "bin"
    }
}

extension Report {
    /// The coverage table of `runs`' modes added up (`CoverageTable`), or none when no run counted its modes.
    public static func coverage(of runs: [Run]) throws -> [String] {
        let modes = try Set(runs.flatMap(\.modes).map { try $0.drivenMode })
        return modes.isEmpty ? [] : CoverageTable.lines(modes)
    }
}

extension Report.Run {
    /// The run with every file it names passed through `move` (a merge copies them into another folder).
    func mappingFiles(_ move: (String) throws -> String) throws -> Report.Run {
        var run = self
        for s in run.steps.indices {
            run.steps[s].screen = try run.steps[s].screen.map(move)
            for w in run.steps[s].windows.indices { run.steps[s].windows[w].picture = try run.steps[s].windows[w].picture.map(move) }
        }
        if var check = run.check {
            check.trace = try move(check.trace)
            for p in check.pictures.indices {
                check.pictures[p].golden = try check.pictures[p].golden.map(move)
                check.pictures[p].actual = try move(check.pictures[p].actual)
                check.pictures[p].diff = try check.pictures[p].diff.map(move)
            }
            check.newPictures = try check.newPictures.mapValues(move)
            run.check = check
        }
        return run
    }
}
