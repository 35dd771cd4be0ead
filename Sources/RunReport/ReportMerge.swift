import FoundationEssentials
import Vocabulary

extension ReportFolder {
    /// Joins reports of one suite run in pieces (a matrix split into shards, pytest's workers) into the folder
    /// at `path` (written anew): every run once, in its suite's order, every file copied once, the coverage
    /// added up. Throws a sentence, before anything is written, when a piece cannot be read, when the pieces are
    /// of different suites (their titles differ; `title` joins them anyway), or when two hold the same run.
    public static func merge(_ pieces: [ReportFolder], into path: String, title: String? = nil) throws -> Report {
        guard !pieces.isEmpty else { throw ReportError("nothing to merge: name the reports to join") }
        // Every piece read and checked before anything is copied; the merged report is none of them (written
        // anew, it would empty the piece it reads).
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        if let piece = pieces.first(where: { URL(fileURLWithPath: $0.path).standardizedFileURL.resolvingSymlinksInPath().path == target }) {
            throw ReportError("\(piece.path) is both a piece and the merged report: write the merged report to another folder")
        }
        let reports = try pieces.map { try $0.read() }
        if title == nil, let other = reports.firstIndex(where: { $0.title != reports[0].title }) {
            throw ReportError("\(pieces[0].path) is a report of \(reports[0].title), \(pieces[other].path) of \(reports[other].title): "
                              + "merge joins the pieces of one run (give --title to join them anyway)")
        }
        var runs: [Report.Run] = []
        var from: [String: String] = [:]  // run id -> the piece it came from
        for (piece, report) in zip(pieces, reports) {
            for run in report.runs where from[run.id] != nil {
                throw ReportError("run \(run.id) is in both \(from[run.id]!) and \(piece.path): merge joins pieces of one run, each run in one piece")
            }
            for run in report.runs { from[run.id] = piece.path }
        }
        let out = try ReportFolder(path, fresh: true)
        for (piece, report) in zip(pieces, reports) {
            for run in report.runs {
                runs.append(try run.mappingFiles { file in try out.store(try piece.contents(of: file), as: Self.fileExtension(file)) })
            }
        }
        runs.sort { ($0.order, $0.id) < ($1.order, $1.id) }
        let merged = Report(title: title ?? reports[0].title, coverage: try Report.coverage(of: runs), runs: runs)
        try out.write(merged)
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
