import ArgumentParser
import Foundation
import Pictures
import Layout
import TraitModel
import Vocabulary

/// `traitctl layout matrix`: a contact sheet of one layout file in every case `layout check` solves.
extension LayoutCommand {
    /// `traitctl layout matrix FILE --svg OUT`: a contact sheet of one layout in every case `check` solves.
    struct Matrix: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw one layout file in every (device, orientation, arrangement, window) as a contact sheet.",
            discussion: """
                A row per device and orientation (iPads, then iPhones), and per display-wide setting the file depends \
                on (a matrix by appearance, direction or text size: as layout check solves them; dark windows drawn \
                dark), a column per arrangement and window. Each card \
                shows the window at one scale for the whole sheet with the layout's views and its safe area (dashed), \
                titled with its size and size classes. Cards whose required constraints conflict are marked red with \
                the conflicting lines; ambiguous ones orange with the free anchors. Prints a one-line summary; exits 0 \
                once the picture is written (65/66 for a file that cannot be parsed or read).
                """)
        @Argument(help: "The layout file.") var file: String
        @OptionGroup var rules: LayoutChecksOptions
        @Option(help: ArgumentHelp("Write the SVG here.", valueName: "file")) var svg: String?
        @Option(help: ArgumentHelp("Write a PNG here (through rsvg-convert).", valueName: "file")) var png: String?
        @Option(name: .customLong("device"), help: ArgumentHelp("Only this device's rows (repeat for more).", valueName: "id"),
                completion: .custom(Completions.device))
        var devices: [String] = []
        @Option(help: ArgumentHelp(
            "Free-form windows instead of the devices' cases: widths FROM:TO:STEP in points (320:1366:64), a column each.",
            valueName: "from:to:step"))
        var widths: String?
        @Option(help: ArgumentHelp("The free-form windows' height in points (with --widths).", valueName: "points"))
        var height: Double = 768

        /// `--widths FROM:TO:STEP` as the widths it names.
        var freeFormWidths: [Double]? {
            get throws {
                guard let widths else { return nil }
                let parts = widths.split(separator: ":").map { Double($0) }
                guard parts.count == 3, let from = parts[0], let to = parts[1], let step = parts[2],
                      from >= 1, to >= from, step > 0, (to - from) / step < 200 else {
                    throw ValidationError("--widths takes FROM:TO:STEP in points, at most 200 columns (320:1366:64); got '\(widths)'")
                }
                return Array(stride(from: from, through: to, by: step))
            }
        }

        func validate() throws {
            if svg == nil && png == nil { throw ValidationError("give --svg FILE, --png FILE, or both") }
            _ = try freeFormWidths
            if !(1...10_000).contains(height) { throw ValidationError("--height takes 1 to 10000 points; got \(height)") }
            let known = Completions.devices
            for device in devices where !known.contains(device) {
                throw ValidationError("unknown device '\(device)'; known: \(known.joined(separator: ", "))")
            }
        }

        func run() throws {
            let document = try LayoutCommand.load(file)
            let cases = try freeFormWidths.map { LayoutCase.freeForm(widths: $0, height: height, settings: document.traitCombinations) }
                ?? LayoutCase.all(settings: document.traitCombinations).filter { devices.isEmpty || devices.contains($0.device) }
            let sheet = ContactSheet(document: document, title: file, cases: cases, checks: try rules.checks())
            do {
                try sheet.picture.write(svg: svg, png: png)
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                throw ExitCode(1)
            }
            // The problems the daemon's layout checks find, one line per case, in `layout check`'s words.
            for line in sheet.problemLines { print(line) }
            let ok = cases.count - sheet.conflicts - sheet.ambiguous - sheet.withProblems
            print("\(cases.count) cases: \(ok) ok, \(sheet.conflicts) with conflicts, \(sheet.ambiguous) ambiguous, "
                  + "\(sheet.withProblems) with layout problems")
        }
    }
}

/// The contact sheet's drawing: a grid with a row per (device, orientation) and a column per (arrangement,
/// window), headers on both, every window drawn at one scale (the largest window fills its card), so that sizes
/// compare at a glance.
struct ContactSheet {
    static let card = (width: 196.0, height: 232.0)
    static let box = (width: 180.0, height: 150.0)
    static let header = (left: 170.0, top: 84.0)
    /// The columns, in the order of the arrangements; a case's column is its (arrangement, role).
    static let columns: [(arrangement: String, role: String)] = [
        ("full", "primary"), ("split-two-thirds", "primary"), ("split-two-thirds", "secondary"),
        ("split-half", "primary"), ("split-half", "secondary"), ("split-one-third", "primary"),
        ("split-one-third", "secondary"), ("slide-over", "primary"), ("slide-over", "slide-over"),
    ]
    let document: LayoutDocument
    let title: String
    let cases: [LayoutCase]
    /// `columns`, or, for cases outside them (free-form widths), the cases' own columns in their order.
    let shownColumns: [(arrangement: String, role: String)]
    /// Points to pixels, the same for every card.
    let scale: Double
    private(set) var conflicts = 0
    private(set) var ambiguous = 0
    /// Each case that solves with a layout problem (the daemon's checks), as `layout check` prints it.
    private(set) var problemLines: [String] = []
    var withProblems: Int { problemLines.count }
    private(set) var picture: Picture

    /// The layout checks each case is judged by.
    let checks: LayoutChecks

    init(document: LayoutDocument, title: String, cases: [LayoutCase], checks: LayoutChecks = LayoutChecks()) {
        self.document = document
        self.checks = checks
        self.title = title
        self.cases = cases
        var own: [(arrangement: String, role: String)] = []
        for item in cases where !own.contains(where: { $0 == (item.arrangement, item.role) }) { own.append((item.arrangement, item.role)) }
        shownColumns = own.allSatisfy { column in Self.columns.contains { $0 == column } } ? Self.columns : own
        let widest = cases.map(\.width).max() ?? 1, tallest = cases.map(\.height).max() ?? 1
        scale = min(Self.box.width / max(widest, 1), Self.box.height / max(tallest, 1))
        var rows: [String] = []
        for item in cases where !rows.contains(item.rowKey) { rows.append(item.rowKey) }
        let width = Self.header.left + Double(shownColumns.count) * Self.card.width + 10
        picture = Picture(width: width, height: Self.header.top + Double(rows.count) * Self.card.height + 10,
                          background: "#ffffff")
        picture.text(12, 28, "\(title) · app \(document.app ?? "?") · \(cases.count) cases", size: 18, bold: true)
        let scaleNote = "every window at one scale: 100 pt = \((100 * scale).formatted1) px; dashed: the safe area"
        picture.text(12, 48, scaleNote, size: 12, color: "#555")
        // The views' colours, named once for the whole sheet (a view's name is drawn in its card only where it fits).
        var keyX = 12 + TextMetrics.width(scaleNote, size: 12) + 16
        picture.text(keyX, 48, "views:", size: 12, color: "#555")
        keyX += TextMetrics.width("views: ", size: 12)
        for (index, view) in document.views.enumerated() {
            picture.text(keyX, 48, view, size: 12, color: Picture.palette[index % Picture.palette.count], bold: true)
            keyX += TextMetrics.width(view + "  ", size: 12, bold: true)
        }
        for (index, column) in shownColumns.enumerated() {
            let x = Self.header.left + Double(index) * Self.card.width
            picture.text(x + 4, Self.header.top - 22, column.arrangement, size: 12, bold: true)
            picture.text(x + 4, Self.header.top - 8, column.role + " window", size: 11, color: "#555")
        }
        for (row, key) in rows.enumerated() {
            let y = Self.header.top + Double(row) * Self.card.height
            let first = cases.first { $0.rowKey == key }!
            picture.text(12, y + 20, first.device, size: 13, bold: true)
            picture.text(12, y + 36, first.orientation, size: 12, color: "#444")
            picture.text(12, y + 52, first.environment.traits.idiom == .phone ? "iPhone" : "iPad", size: 11, color: "#777")
            if first.settingsText != "default" { picture.text(12, y + 68, first.settingsText, size: 11, color: "#5856d6", bold: true) }
            for (index, column) in shownColumns.enumerated() {
                let x = Self.header.left + Double(index) * Self.card.width
                if let item = cases.first(where: { $0.rowKey == key && $0.arrangement == column.arrangement && $0.role == column.role }) {
                    draw(item, x: x, y: y)
                } else {
                    picture.rect(x, y, Self.card.width - 8, Self.card.height - 8, fill: "#fafafa", stroke: "#e6e6e6", radius: 6)
                    picture.text(x + (Self.card.width - 8) / 2, y + Self.card.height / 2, "not offered", size: 10, color: "#bbb",
                                 anchor: "middle")
                }
            }
        }
        picture.text(width - 12, 28, "\(cases.count - conflicts - ambiguous - withProblems) ok · \(conflicts) conflict · "
                     + "\(ambiguous) ambiguous · \(withProblems) with problems",
                     size: 14, color: conflicts + withProblems > 0 ? "#c0392b" : "#27ae60", anchor: "end")
    }

    private mutating func draw(_ item: LayoutCase, x: Double, y: Double) {
        let outcome = item.solve(document)
        let (status, color): (String, String)
        var detail = ""
        switch outcome {
        case .success(let solved) where solved.ambiguous.isEmpty:
            // The daemon's layout checks, as `layout check` runs them: a case with a problem is marked, not ok.
            let problems = item.problems(of: solved, in: document, checks: checks).map { "\($0.rule) \($0.element): \($0.message)" }
            if problems.isEmpty {
                (status, color) = ("ok", "#27ae60")
            } else {
                (status, color) = ("problem: " + problems[0] + (problems.count > 1 ? " (+\(problems.count - 1) more)" : ""), "#8e44ad")
                detail = " (all of: " + problems.joined(separator: " | ") + ")"
                problemLines.append("\(item.device) \(item.orientation) \(item.arrangement) \(item.role) \(item.size) "
                                    + "\(item.settingsText): " + problems.joined(separator: " | "))
            }
        case .success(let solved):
            ambiguous += 1
            (status, color) = ("ambiguous: " + solved.ambiguous.joined(separator: ", "), "#e67e22")
        case .failure(let lines):
            conflicts += 1
            let shown = lines.filter { !$0.hasPrefix("the container") && !$0.hasPrefix("the safe area") }
            (status, color) = ("conflict: " + (shown.isEmpty ? lines : shown).joined(separator: " | "), "#c0392b")
            detail = " (all of: " + lines.joined(separator: " | ") + ")"
        }
        let scale = self.scale
        let (w, h) = (item.width * scale, item.height * scale)
        let (wx, wy) = (x + 6, y + 22)
        let document = self.document
        picture.group("\(item.device) \(item.orientation) \(item.arrangement) \(item.role) \(item.size) \(item.classes): \(status)\(detail)") { p in
            p.rect(x, y, Self.card.width - 8, Self.card.height - 8, fill: "#f7f7f9", stroke: color,
                   strokeWidth: status == "ok" ? 1 : 3, radius: 6)
            p.text(x + 6, y + 15, "\(item.size) · \(item.classes)", size: 10, bold: true)
            p.rect(wx, wy, w, h, fill: item.environment.traits.display.isDark ? "#1c1c1e" : "#ffffff", stroke: "#777")
            // First the status below the window, wrapped to the card: a conflict's lines are read in the card itself.
            // 28 characters of 9-pt bold (at most 0.68 em each) fill the card's 176 px without reaching the next.
            let lines = Self.wrap(status, width: 28, maxLines: 4)
            let top = y + Self.card.height - 14 - Double(lines.count - 1) * 11
            for (index, line) in lines.enumerated() {
                p.text(x + 6, top + Double(index) * 11, line, size: 9, color: color, bold: status != "ok")
            }
            let s = item.environment.safeArea
            if s.top + s.left + s.bottom + s.right > 0 {
                p.rect(wx + s.left * scale, wy + s.top * scale, w - (s.left + s.right) * scale, h - (s.top + s.bottom) * scale,
                       stroke: "#34c759", strokeWidth: 1, dashed: true)
            }
            if case .success(let solved) = outcome {
                for (index, view) in document.views.enumerated() {
                    guard let f = solved.frames[view] else { continue }
                    let tint = Picture.palette[index % Picture.palette.count]
                    p.rect(wx + f.x * scale, wy + f.y * scale, f.width * scale, f.height * scale, fill: tint, stroke: tint,
                           opacity: 0.25)
                    // A name only where it fits inside its view, over no other name and not over the status.
                    let box = Rect(x: wx + f.x * scale, y: wy + f.y * scale, width: f.width * scale, height: f.height * scale)
                    p.label(view, size: 9, color: tint, candidates: LabelCandidates.around(box, text: view, size: 9), within: box)
                }
            } else {
                p.text(x + (Self.card.width - 8) / 2, wy + h / 2 + 4, "no layout", size: 11, color: color, bold: true,
                       anchor: "middle")
            }
        }
    }

    /// `text` in lines of at most `width` characters, cut at spaces where it can; at most `maxLines` (the last
    /// ends with an ellipsis when text is left over).
    static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty && lines.count < maxLines {
            if rest.count <= width {
                lines.append(String(rest))
                rest = ""
                break
            }
            let window = rest.prefix(width)
            let cut = window.lastIndex(of: " ").map { rest.distance(from: rest.startIndex, to: $0) } ?? width
            let take = cut > width / 2 ? cut : width
            lines.append(String(rest.prefix(take)))
            rest = rest.dropFirst(take).drop { $0 == " " }
        }
        if !rest.isEmpty, let last = lines.popLast() { lines.append(String(last.prefix(width - 1)) + "…") }
        return lines
    }
}

extension LayoutCase {
    /// The sheet's row: one per device and orientation.
    var rowKey: String { device + " " + orientation + " " + settingsText }
}

extension Double {
    fileprivate var formatted1: String { (self * 10).rounded() / 10 == rounded() ? String(Int(rounded())) : String((self * 10).rounded() / 10) }
}
