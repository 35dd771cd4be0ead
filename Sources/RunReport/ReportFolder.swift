import Foundation
import TraitConfig

/// A report's folder: `index.html` (the viewer with the report in it, opened from `file://`: no server, no
/// network), `report.json` (the same record, for `merge` and `accept`) and `files/` (pictures and traces, each
/// named by its content, so that a picture equal in two steps or two runs is one file).
public struct ReportFolder: Sendable {
    public let path: String

    /// The folder at `path`, made with its `files/` when missing. `fresh`: a report written anew, the files of
    /// one written there before removed (a folder that holds anything else is refused, untouched).
    public init(_ path: String, fresh: Bool = false) throws {
        self.path = path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw ReportError("\(path) is a file, not a folder: a report is written into a folder") }
            if fresh {
                // A report's own files, and only in a report's folder (one with its report.json).
                let ours: Set<String> = ["files", "report.json", "index.html"]
                // (An empty files/ is one a refused or checked folder was left with: nothing to keep.)
                let emptyFiles = (try? FileManager.default.contentsOfDirectory(atPath: "\(path)/files"))?.isEmpty == true
                let entries = try FileManager.default.contentsOfDirectory(atPath: path)
                    .filter { !$0.hasPrefix(".pieces-") && !($0 == "files" && emptyFiles) }
                let others = entries.contains("report.json") ? entries.filter { !ours.contains($0) } : entries
                guard others.isEmpty else {
                    throw ReportError("\(path) holds files that are not a report's (\(others.sorted().prefix(3).joined(separator: ", ")));"
                                      + " give a new or empty folder, or one a report was written to")
                }
                for name in ours { try? FileManager.default.removeItem(atPath: "\(path)/\(name)") }
            }
        }
        try FileManager.default.createDirectory(atPath: "\(path)/files", withIntermediateDirectories: true)
    }

    /// The report at `path`, which must be a folder (of a report, as `read` then checks).
    public init(existing path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ReportError("\(path): no such folder (a report is the folder --report DIR wrote)")
        }
        guard isFolder.boolValue else { throw ReportError("\(path) is a file, not a report's folder (the folder --report DIR wrote)") }
        self.path = path
    }

    /// Keeps `bytes` as a file named by its content and returns its path in the report (`files/HASH.EXT`).
    public func store(_ bytes: [UInt8], as fileExtension: String) throws -> String {
        var name = Self.contentName(bytes)
        // Two different contents of one 64-bit name are most unlikely, not impossible: the second gets a suffix.
        var suffix = 1
        while let existing = FileManager.default.contents(atPath: "\(path)/files/\(name).\(fileExtension)"), existing.count != bytes.count || [UInt8](existing) != bytes {
            suffix += 1
            name = Self.contentName(bytes) + "-\(suffix)"
        }
        let file = "files/\(name).\(fileExtension)"
        if !FileManager.default.fileExists(atPath: "\(path)/\(file)") {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(file)"), options: .atomic)
        }
        return file
    }

    /// A file of the report, read (a path `store` returned: `files/NAME`, nothing outside the folder).
    public func contents(of file: String) throws -> [UInt8] {
        guard file.hasPrefix("files/"), !file.dropFirst(6).contains("/"), !file.contains("..") else {
            throw ReportError("\(path): the report names \(file), which is not one of its files")
        }
        guard let data = FileManager.default.contents(atPath: "\(path)/\(file)") else {
            throw ReportError("\(path): the report names \(file), which is missing")
        }
        return [UInt8](data)
    }

    /// Writes `report.json` and `index.html`, each in place of the last; each checked run's accept command
    /// names this folder as it was given.
    public func write(_ report: Report) throws {
        var report = report
        for index in report.runs.indices where report.runs[index].check != nil {
            report.runs[index].check!.accept = "traitctl accept \(ShellWords.quoted(path)) \(ShellWords.quoted(report.runs[index].id))"
        }
        let json = try Self.encoder.encode(report)
        try json.write(to: URL(fileURLWithPath: "\(path)/report.json"), options: .atomic)
        try Data(Self.page(json).utf8).write(to: URL(fileURLWithPath: "\(path)/index.html"), options: .atomic)
    }

    /// The report a folder holds; throws a sentence for a folder that holds none, or another format.
    public func read() throws -> Report {
        let file = "\(path)/report.json"
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ReportError("\(path) is not a report: it has no report.json (write one with --report \(path))")
        }
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw ReportError("\(file): not a traitd report (\(error))")
        }
        guard report.format == Report.currentFormat else {
            throw ReportError("\(file): a report of format '\(report.format)'; this traitctl reads '\(Report.currentFormat)'")
        }
        return report
    }

    /// The viewer with the report in its data element; every `<` of the JSON written `\u003c`, so that no
    /// string of a page or an app (a name, a message) can end the element or start another.
    static func page(_ json: Data) -> String {
        let template = String(decoding: PackageResources.viewer_html, as: UTF8.self)
        let data = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        return template.replacingOccurrences(of: Self.placeholder, with: data)
    }

    /// Where the viewer's template takes the report (once, inside `<script id="report-data">`).
    static let placeholder = "__TRAITD_REPORT_DATA__"

    /// Sorted keys: the same report is the same file, so two reports compare as text.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// FNV-1a's 64 bits of `bytes`, in hex: a name that is the same for the same content.
    static func contentName(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Why a report cannot be read, written, merged or accepted: a sentence.
public struct ReportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
