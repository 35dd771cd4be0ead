import Foundation
import TraitModel

/// The window-width table of the iPad geometry reference (`Fixtures/ipad-geometry.md`, copied unchanged from the
/// project's shared reference), read from the table itself so that the profiles are checked against the
/// reference's own numbers, not against numbers retyped into a test.
struct ReferenceRow {
    let id: String
    let screen: Size  // landscape
    /// full, two-thirds, half, one-third, slide-over
    let landscape: [(Double, SizeClass)]
    /// full, two-thirds, one-third, slide-over
    let portrait: [(Double, SizeClass)]
}

enum ReferenceTable {
    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ipad-geometry.md").path
    }

    static func rows() throws -> [ReferenceRow] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TableError("cannot read \(path)")
        }
        var rows: [ReferenceRow] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ipad-") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let dims = cells[2].split(separator: "x").map { Double($0.trimmingCharacters(in: .whitespaces))! }
            rows.append(ReferenceRow(
                id: cells[0], screen: Size(width: dims[0], height: dims[1]),
                landscape: try widths(cells[3]), portrait: try widths(cells[4])))
        }
        return rows
    }

    /// "1024 R / 694 R / 561.5 C (L)" -> [(1024, regular), (694, regular), (561.5, compact)]
    static func widths(_ cell: String) throws -> [(Double, SizeClass)] {
        try cell.split(separator: "/").map { part in
            let words = part.split(separator: " ")
            guard words.count >= 2, let width = Double(words[0]) else { throw TableError("cannot read '\(part)'") }
            return (width, words[1] == "R" ? .regular : .compact)
        }
    }
}

struct TableError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
