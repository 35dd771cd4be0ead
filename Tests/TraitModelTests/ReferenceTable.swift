import Foundation
import TraitModel
import Vocabulary

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
        var rows: [ReferenceRow] = []
        for line in try text().split(separator: "\n") where line.hasPrefix("| ipad-") {
            let cells = cells(line)
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

/// One row of the reference's iPhone table: screen, safe areas and landscape size classes.
struct PhoneRow {
    let id: String
    let model: String
    let portraitScreen: Size
    let portraitSafeArea: EdgeInsets
    let landscapeSafeArea: EdgeInsets
    let landscapeHorizontal: SizeClass
    let landscapeVertical: SizeClass
}

extension ReferenceTable {
    static func text() throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TableError("cannot read \(path)") }
        return text
    }

    static func cells(_ line: Substring) -> [String] {
        line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// "44, 0, 34, 0" (top, left, bottom, right), possibly followed by a note in parentheses.
    static func insets(_ cell: String) throws -> EdgeInsets {
        let numbers = cell.prefix { $0 != "(" }.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { throw TableError("cannot read insets '\(cell)'") }
        return EdgeInsets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
    }

    static func sizeClass(_ letter: Substring) throws -> SizeClass {
        switch letter.trimmingCharacters(in: .whitespaces) {
        case "R": return .regular
        case "C": return .compact
        default: throw TableError("cannot read size class '\(letter)'")
        }
    }

    /// The rows of "Screens and safe-area insets" (those whose first cell is a profile id `iphone-*`).
    static func phoneRows() throws -> [PhoneRow] {
        try text().split(separator: "\n").filter { $0.hasPrefix("| iphone-") }.map { line in
            let c = cells(line)
            let dims = c[2].split(separator: "x").map { Double($0.trimmingCharacters(in: .whitespaces))! }
            let classes = c[5].split(separator: "/")
            return PhoneRow(
                id: c[0], model: c[1], portraitScreen: Size(width: dims[0], height: dims[1]),
                portraitSafeArea: try insets(c[3]), landscapeSafeArea: try insets(c[4]),
                landscapeHorizontal: try sizeClass(classes[0]), landscapeVertical: try sizeClass(classes[1]))
        }
    }

    /// The iPad safe-area table: (the models cell, insets).
    static func padSafeAreaRows() throws -> [(models: String, insets: EdgeInsets)] {
        let text = try text()
        guard let start = text.range(of: "## Safe areas on iPad") else { throw TableError("no iPad safe-area section") }
        let section = text[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }
        return try section.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| models") && !$0.hasPrefix("|--") }.map { line in
            let c = cells(line)
            return (c[0], try insets(c[1]))
        }
    }
}
