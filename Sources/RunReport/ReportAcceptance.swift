import FoundationEssentials
import ScenarioTraces

/// `traitctl accept DIR [RUN...]`: a report's new traces and pictures taken as the goldens its runs were checked
/// against, as `scenario run --update` would write them, without running anything again.
public enum ReportAcceptance {
    /// Writes the goldens of the runs named (all those that differ from theirs, when none is named) and returns
    /// a line for each. Throws a sentence, having written nothing, for a run the report does not have or that
    /// was not checked against goldens.
    public static func accept(_ folder: ReportFolder, runs names: [String]) throws -> [String] {
        let report = try folder.read()
        let chosen: [Report.Run]
        if names.isEmpty {
            chosen = report.runs.filter { run in run.check.map { !$0.traceMatches || !$0.pictures.isEmpty } ?? false }
        } else {
            chosen = try names.map { name in
                guard let run = report.runs.first(where: { $0.id == name }) else {
                    let ids = report.runs.map(\.id)
                    throw ReportError("\(folder.path) has no run \(name); its runs: " + ids.prefix(20).joined(separator: ", ")
                                      + (ids.count > 20 ? ", and \(ids.count - 20) more" : ""))
                }
                guard run.check != nil else {
                    throw ReportError("run \(name) was not checked against goldens (run it with --check): there is nothing to accept")
                }
                return run
            }
        }
        // Everything read before anything is written: a missing file leaves every golden as it was.
        var writes: [(run: String, trace: String, text: [UInt8], pictures: [String: [UInt8]]?)] = []
        for run in chosen {
            let check = run.check!
            let folderOfTrace = URL(fileURLWithPath: check.golden).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: folderOfTrace) else {
                throw ReportError("run \(run.id): the golden trace's folder \(folderOfTrace) does not exist here (accept on the machine, and in the tree, the run checked)")
            }
            let pictures = check.newPictures.isEmpty ? nil : try check.newPictures.mapValues { try folder.contents(of: $0) }
            writes.append((run.id, check.golden, try folder.contents(of: check.trace), pictures))
        }
        var lines: [String] = []
        for write in writes {
            try Data(write.text).write(to: URL(fileURLWithPath: write.trace), options: .atomic)
            var line = "\(write.run): wrote \(write.trace)"
            if let pictures = write.pictures {
                try GoldenPictures.write(pictures, beside: write.trace)
                line += " and \(pictures.count) pictures in \(GoldenPictures.folder(of: write.trace))"
            }
            lines.append(line)
        }
        if lines.isEmpty { lines.append("\(folder.path): every run checked matches its goldens; nothing to accept") }
        return lines
    }
}
