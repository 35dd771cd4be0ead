import ArgumentParser
import Foundation
import Layout

extension LayoutCommand {
    /// `traitctl layout matrix FILE --svg OUT`: a contact sheet of one layout in every case `check` solves.
    struct Matrix: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw one layout file in every (device, orientation, arrangement, window) as a contact sheet.",
            discussion: """
                Each cell shows the window scaled down with the layout's views, titled with the device, orientation, \
                arrangement, role, size and size classes. Cells whose required constraints conflict are marked red \
                with the first conflicting line; ambiguous ones orange with the free anchors. Prints a one-line \
                summary; exits 0 once the picture is written (65/66 for a file that cannot be parsed or read).
                """)
        @Argument(help: "The layout file.") var file: String
        @Option(help: ArgumentHelp("Write the SVG here.", valueName: "file")) var svg: String?
        @Option(help: ArgumentHelp("Write a PNG here (through rsvg-convert).", valueName: "file")) var png: String?

        func validate() throws {
            if svg == nil && png == nil { throw ValidationError("give --svg FILE, --png FILE, or both") }
        }

        func run() throws {
            let document = try LayoutCommand.load(file)
            let cases = try LayoutCase.all()
            let sheet = ContactSheet(document: document, title: file, cases: cases)
            do {
                try sheet.picture.write(svg: svg, png: png)
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(error)\n".utf8))
                throw ExitCode(1)
            }
            print("\(cases.count) cases: \(cases.count - sheet.conflicts - sheet.ambiguous) ok, \(sheet.conflicts) with conflicts, \(sheet.ambiguous) ambiguous")
        }
    }
}

/// The contact sheet's drawing.
struct ContactSheet {
    static let cell = (width: 250.0, height: 262.0)
    static let box = (width: 226.0, height: 170.0)
    static let columns = 6
    let document: LayoutDocument
    let title: String
    let cases: [LayoutCase]
    private(set) var conflicts = 0
    private(set) var ambiguous = 0
    private(set) var picture: Picture

    init(document: LayoutDocument, title: String, cases: [LayoutCase]) {
        self.document = document
        self.title = title
        self.cases = cases
        let rows = (cases.count + Self.columns - 1) / Self.columns
        picture = Picture(width: Double(Self.columns) * Self.cell.width + 20, height: 50 + Double(rows) * Self.cell.height,
                          background: "#ffffff")
        picture.text(12, 28, "\(title) · app \(document.app ?? "?") · \(cases.count) cases", size: 18, bold: true)
        for (index, item) in cases.enumerated() {
            draw(item, x: 10 + Double(index % Self.columns) * Self.cell.width, y: 46 + Double(index / Self.columns) * Self.cell.height)
        }
        picture.text(Double(Self.columns) * Self.cell.width - 8, 28,
                     "\(cases.count - conflicts - ambiguous) ok · \(conflicts) conflict · \(ambiguous) ambiguous",
                     size: 14, color: conflicts > 0 ? "#c0392b" : "#27ae60", anchor: "end")
    }

    private mutating func draw(_ item: LayoutCase, x: Double, y: Double) {
        let outcome = item.solve(document)
        let (status, color): (String, String)
        var detail = ""
        switch outcome {
        case .success(let solved) where solved.ambiguous.isEmpty: (status, color) = ("ok", "#27ae60")
        case .success(let solved):
            ambiguous += 1
            (status, color) = ("ambiguous: " + solved.ambiguous.joined(separator: ", "), "#e67e22")
        case .failure(let lines):
            conflicts += 1
            let first = lines.first { !$0.hasPrefix("the container") } ?? lines.first ?? ""
            (status, color) = ("conflict: " + first, "#c0392b")
            detail = " (all of: " + lines.joined(separator: " | ") + ")"
        }
        let scale = min(Self.box.width / max(item.width, 1), Self.box.height / max(item.height, 1))
        let (w, h) = (item.width * scale, item.height * scale)
        let (wx, wy) = (x + (Self.box.width - w) / 2, y + 44)
        picture.group("\(item.device) \(item.orientation) \(item.arrangement) \(item.role) \(item.size) \(item.classes): \(status)\(detail)") { p in
            p.rect(x, y, Self.cell.width - 10, Self.cell.height - 10, fill: "#f7f7f9", stroke: color,
                   strokeWidth: status == "ok" ? 1 : 3, radius: 6)
            p.text(x + 8, y + 16, "\(item.device) · \(item.orientation)", size: 11, bold: true)
            p.text(x + 8, y + 31, "\(item.arrangement) · \(item.role) · \(item.size) \(item.classes)", size: 10, color: "#444")
            p.rect(wx, wy, w, h, fill: "#ffffff", stroke: "#777")
            if case .success(let solved) = outcome {
                for (index, view) in document.views.enumerated() {
                    guard let f = solved.frames[view] else { continue }
                    let tint = Picture.palette[index % Picture.palette.count]
                    p.rect(wx + f[0] * scale, wy + f[1] * scale, f[2] * scale, f[3] * scale, fill: tint, stroke: tint,
                           opacity: 0.25)
                    if f[2] * scale > 24 && f[3] * scale > 12 {
                        p.text(wx + f[0] * scale + 3, wy + f[1] * scale + 11, view, size: 9, color: tint)
                    }
                }
            } else {
                p.text(wx + w / 2, wy + h / 2, "no layout", size: 13, color: color, bold: true, anchor: "middle")
            }
            let shown = status.count > 44 ? String(status.prefix(43)) + "…" : status
            p.text(x + 8, y + Self.cell.height - 20, shown, size: 10, color: color, bold: status != "ok")
        }
    }
}
