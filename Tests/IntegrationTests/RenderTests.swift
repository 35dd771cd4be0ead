import Foundation
import TestSupport
import TraitClient
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `traitctl render` and `traitctl layout matrix`: SVG an XML parser accepts, naming what it draws; PNG through
/// rsvg-convert, of the SVG's size.
@Suite struct RenderTests {
    /// Every text node and every <title> of an SVG, parsed with Foundation's XMLParser (libxml2).
    final class SVGText: NSObject, XMLParserDelegate {
        var texts: [String] = []
        var size: (width: Int, height: Int)?
        /// Every <text>: its string and its estimated box (x, y, width, height).
        var textBoxes: [(text: String, box: [Double])] = []
        /// Every <rect>: x, y, width, height.
        var rects: [[Double]] = []
        private var current = ""
        private var inText = false
        private var textAttributes: [String: String] = [:]

        init(_ data: Data) throws {
            super.init()
            let parser = XMLParser(data: data)
            parser.delegate = self
            guard parser.parse() else { throw TestFailure("not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")") }
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "svg", let w = attributes["width"].flatMap(Int.init), let h = attributes["height"].flatMap(Int.init) {
                size = (w, h)
            }
            if name == "rect" { rects.append(["x", "y", "width", "height"].map { Double(attributes[$0] ?? "") ?? .nan }) }
            if name == "text" { textAttributes = attributes }
            inText = name == "text" || name == "title"
            current = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { if inText { current += string } }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if inText { texts.append(current) }
            if name == "text" { textBoxes.append((current, Self.box(current, textAttributes))) }
            inText = false
        }

        /// A text's box from its own attributes: at most 0.62 em a character (0.68 bold) for DejaVu Sans, from
        /// 0.85 em above the baseline to 0.25 em below it, placed by text-anchor.
        static func box(_ text: String, _ a: [String: String]) -> [Double] {
            let size = Double(a["font-size"] ?? "") ?? .nan
            let width = Double(text.count) * size * (a["font-weight"] == "bold" ? 0.68 : 0.62)
            var x = Double(a["x"] ?? "") ?? .nan
            if a["text-anchor"] == "middle" { x -= width / 2 } else if a["text-anchor"] == "end" { x -= width }
            return [x, (Double(a["y"] ?? "") ?? .nan) - 0.85 * size, width, 1.1 * size]
        }

        /// Pairs of texts whose boxes share any area.
        var overlappingTexts: [String] {
            var found: [String] = []
            for i in textBoxes.indices {
                for j in textBoxes.indices where j > i {
                    let (a, b) = (textBoxes[i].box, textBoxes[j].box)
                    if a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3] {
                        found.append("'\(textBoxes[i].text)' \(a) over '\(textBoxes[j].text)' \(b)")
                    }
                }
            }
            return found
        }
    }

    @Test func renderDrawsEveryWindowAndEveryReportedElement() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture)
        try await recorder.until("both windows' layouts") {
            let state = try? await recorder.client.state()
            return state?.window("mail")?.layouts.count == 3 && state?.window("notes")?.layouts.count == 3
        }
        let folder = fixture.bus.folder
        let svg = folder.appendingPathComponent("screen.svg"), png = folder.appendingPathComponent("screen.png")
        let run = try await fixture.traitctl(["render", "--svg", svg.path, "--png", png.path])
        #expect(run.status == 0, "\(run.stderr)")
        let parsed = try SVGText(try Data(contentsOf: svg))
        let text = parsed.texts.joined(separator: "\n")
        let state = try await recorder.client.state()
        for window in state.windows {
            #expect(text.contains("\(window.app) · \(window.role)"), "window \(window.app) is named")
            #expect(text.contains("\(window.horizontalSizeClass)/\(window.verticalSizeClass)"))
            for (adapter, elements) in window.layouts {
                for element in elements.keys { #expect(text.contains("\(adapter): \(element)"), "\(adapter): \(element) is labelled") }
            }
        }
        #expect(text.contains("divider at 694"))
        #expect(text.contains("ipad-9.7 · landscape-left · split-two-thirds"))
        #expect(parsed.overlappingTexts.isEmpty, "no label over another or a caption: \(parsed.overlappingTexts)")
        #expect(parsed.textBoxes.count >= 18, "every label was read (\(parsed.textBoxes.count))")
        // Every reported frame is drawn at its exact size, at the window's origin on the screen (36 pt bezel,
        // 34 pt header above it).
        for window in state.windows {
            for elements in window.layouts.values {
                for frame in elements.values {
                    let drawn: [Double] = [36 + window.frame.x + frame.x, 70 + window.frame.y + frame.y, frame.width, frame.height]
                    #expect(parsed.rects.contains { zip($0, drawn).allSatisfy { abs($0 - $1) < 0.01 } }, "\(window.app) \(frame)")
                }
            }
        }
        // The PNG is a real PNG, as large as the SVG says (one pixel a point, plus the bezel and header).
        let size = try pngSize(try Data(contentsOf: png))
        let declared = try #require(parsed.size)
        #expect(size == (declared.width, declared.height))
        #expect(declared.width == 1024 + 72, "the 1024 pt screen and two 36 pt bezels")
        withExtendedLifetime(host) {}
    }

    /// `-` writes to standard output, for a pipe (`traitctl render --svg - | rsvg-convert ...`); not both at once.
    @Test func renderToStandardOutput() async throws {
        let fixture = try await DaemonFixture()
        let svg = try await fixture.traitctl(["render", "--svg", "-"])
        #expect(svg.status == 0, "\(svg.stderr)")
        let parsed = try SVGText(Data(svg.stdout.utf8))
        #expect(parsed.texts.joined(separator: "\n").contains("ipad-9.7 · landscape-left · split-two-thirds"))
        // A PNG is not text: look at its first eight bytes through od, in a pipe as a script would.
        let png = try await fixture.run("sh", ["-c", "\"$0\" render --png - | od -An -tx1 -N8", Binaries.path("traitctl")])
        #expect(png.stdout.split(separator: " ").joined(separator: " ").hasPrefix("89 50 4e 47 0d 0a 1a 0a"), "\(png)")
        let both = try await fixture.traitctl(["render", "--svg", "-", "--png", "-"])
        #expect(both.status == 1 && both.stderr.contains("both ask for standard output"), "\(both.stderr)")
    }

    /// `--zoom` draws the PNG smaller or larger (traitd-view fits its window with it); the SVG stays one pixel a
    /// point, and a zoom of nothing or of a poster is refused before the daemon is asked.
    @Test func renderZoomsThePNG() async throws {
        let fixture = try await DaemonFixture()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-zoom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("screen.svg"), png = folder.appendingPathComponent("screen.png")
        let run = try await fixture.traitctl(["render", "--svg", svg.path, "--png", png.path, "--zoom", "0.5"])
        #expect(run.status == 0, "\(run.stderr)")
        let declared = try #require(try SVGText(Data(contentsOf: svg)).size)
        #expect(declared.width == 1024 + 72, "the SVG keeps one pixel a point")
        let size = try pngSize(try Data(contentsOf: png))
        #expect(abs(size.0 * 2 - declared.width) <= 1 && abs(size.1 * 2 - declared.height) <= 1, "\(size) for \(declared)")
        for bad in ["0", "-1", "9", "x"] {
            let refused = try await fixture.traitctl(["render", "--png", png.path, "--zoom", bad])
            #expect(refused.status == 64, "--zoom \(bad): \(refused.stderr)")
        }
    }

    /// Thirty elements crowded into one corner, and a picture-in-picture window over the split: labels that do
    /// not fit go to the legend with a numbered tag (at most `legendLimit`, the rest counted), and still no text
    /// overprints another. A frame far below its window (a long page's) is not drawn there, and the legend says so.
    @Test func crowdedLabelsGoToTheLegend() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        #expect(try await fixture.traitctl(["open", "tv", "--role", "pip"]).status == 0)
        try await client.registerAdapter("crowd", for: "mail")
        var frames: [String: Rect] = [:]
        for index in 0..<30 { frames["cell\(index)"] = [Double(index % 6) * 12, Double(index / 6) * 12, 10, 10] }
        frames["big"] = [0, 100, 694, 600]
        let far: Rect = [0, 5000, 100, 40]
        try await client.reportLayout(app: "mail", transition: 0, adapter: "crowd", frames: frames.merging(["far": far]) { a, _ in a })
        let run = try await fixture.traitctl(["render", "--svg", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        let parsed = try SVGText(Data(run.stdout.utf8))
        #expect(parsed.overlappingTexts.isEmpty, "\(parsed.overlappingTexts.prefix(5))")
        var unlisted = 0
        for name in frames.keys {
            let placed = parsed.texts.contains("crowd: \(name)")
            let legend = parsed.texts.contains { $0.hasPrefix("[") && $0.contains("] crowd: \(name) in mail: (") }
            #expect(!(placed && legend), "crowd: \(name) is labelled once, in place or in the legend")
            if !placed && !legend { unlisted += 1 }
        }
        let legend = parsed.texts.filter { $0.hasPrefix("[") }
        #expect(legend.count == 24, "the legend numbers at most 24 labels (\(legend.count))")
        #expect(unlisted > 0 && parsed.texts.contains { $0.hasPrefix("and \(unlisted) more label(s) that fit nowhere") },
                "the rest are counted: \(unlisted)")
        #expect(parsed.texts.contains { $0.hasPrefix("mail: 1 frame(s) outside its window, not drawn (crowd: far)") },
                "\(parsed.texts.filter { $0.hasPrefix("mail:") })")
        let lowest = try #require(parsed.rects.map { $0[1] + $0[3] }.max())
        #expect(lowest < 2000, "nothing is drawn 5000 pt down: \(lowest)")
        let tags = parsed.texts.compactMap(Int.init)
        #expect(!tags.isEmpty && tags.allSatisfy { (1...legend.count).contains($0) }, "numbered tags where they fit: \(tags)")
        // The picture grew to hold the legend.
        let lastLine = try #require(parsed.textBoxes.map { $0.box[1] + $0.box[3] }.max())
        #expect(Double(parsed.size!.height) >= lastLine)
        // The tv window (pip, drawn over mail) has no label of mail's on it.
        let tv = try #require(try await client.state().window("tv")?.frame)
        let tvBox = [36 + tv.x, 70 + tv.y, tv.width, tv.height]
        for (text, box) in parsed.textBoxes where text.hasPrefix("crowd:") {
            let over = box[0] < tvBox[0] + tvBox[2] && tvBox[0] < box[0] + box[2] && box[1] < tvBox[1] + tvBox[3] && tvBox[1] < box[1] + box[3]
            #expect(!over, "'\(text)' is drawn over the tv window")
        }
    }

    /// A window behind another keeps its caption where it shows, never under the window in front; one that
    /// shows nowhere is captioned in the legend. iPadOS 26's window controls are drawn, the caption past them.
    @Test func aWindowBehindAnotherKeepsItsCaption() async throws {
        let fixture = try await DaemonFixture()
        for command in [["set", "windowing", "stage-manager"], ["frame", "mail", "0", "0", "700", "600"],
                        ["frame", "notes", "0", "0", "650", "400"], ["raise", "notes"]] {
            #expect(try await fixture.traitctl(command + ["--wait"]).status == 0, "\(command)")
        }
        let run = try await fixture.traitctl(["render", "--svg", "-"])
        let parsed = try SVGText(Data(run.stdout.utf8))
        #expect(parsed.overlappingTexts.isEmpty, "\(parsed.overlappingTexts.prefix(5))")
        let notes = [36.0, 70, 650, 400]  // the front window, in the picture
        let mail = parsed.textBoxes.first { $0.text == "mail · window" }
        let inLegend = parsed.texts.contains { $0.hasPrefix("[") && $0.contains("] mail · window · ") }
        #expect(mail != nil || inLegend, "mail's caption is somewhere: \(parsed.texts.prefix(20))")
        if let box = mail?.box {
            let over = box[0] < notes[0] + notes[2] && notes[0] < box[0] + box[2] && box[1] < notes[1] + notes[3] && notes[1] < box[1] + box[3]
            #expect(!over, "mail's caption \(box) is under notes")
        }
        // notes's caption, past its window controls (80 pt at its top left).
        let front = try #require(parsed.textBoxes.first { $0.text == "notes · window" })
        #expect(front.box[0] >= 36 + 80, "\(front.box)")
    }

    /// A dark display is drawn dark, and the picture names the settings that are not at their default.
    @Test func renderShowsTheAppearance() async throws {
        let fixture = try await DaemonFixture()
        let svg = fixture.bus.folder.appendingPathComponent("dark.svg")
        #expect(try await fixture.traitctl(["set", "appearance", "dark"]).status == 0)
        let run = try await fixture.traitctl(["render", "--svg", svg.path])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains("#1c1c1e"), "the screen is near black")
        #expect(try SVGText(try Data(contentsOf: svg)).texts.contains { $0.hasSuffix("· appearance dark") })
    }

    @Test func renderNeedsAFileAndADaemon() async throws {
        let none = try await ChildProcess.run(Binaries.path("traitctl"), ["render"])
        #expect(none.status == 64 && none.stderr.contains("give --svg FILE, --png FILE, or both"))
        let bus = try await PrivateBus()
        let noDaemon = try await ChildProcess.run(Binaries.path("traitctl"), ["render", "--svg", "/dev/null", "--bus", bus.address])
        #expect(noDaemon.status == 1 && noDaemon.stderr.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(noDaemon.stderr)")
    }

    @Test func theMatrixDrawsEveryCaseAndMarksConflicts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // At least 400 pt wide: every 320 pt window conflicts.
        let layout = folder.appendingPathComponent("wide.layout")
        try "app mail\nview body\nH:|[body]|\nV:|[body]|\nbody.width >= 400\n".write(to: layout, atomically: true, encoding: .utf8)
        let svg = folder.appendingPathComponent("sheet.svg"), png = folder.appendingPathComponent("sheet.png")
        // Every device as SVG; the PNG (rsvg-convert, the slow part) of one device's rows, below.
        let run = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--svg", svg.path])
        #expect(run.status == 0, "\(run.stderr)")
        let check = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "check", layout.path])
        let lines = check.stdout.split(separator: "\n").dropFirst().dropLast()
        let conflicts = lines.filter { $0.contains("conflict:") }.count
        #expect(conflicts > 0)
        // The daemon's checks, as `layout check` runs them: the file fills the window past its safe area.
        let problems = lines.filter { !$0.hasSuffix(" ok") && !$0.contains("conflict:") }.count
        #expect(problems > 0 && run.stdout.contains("\(lines.count) cases: \(lines.count - conflicts - problems) ok, \(conflicts) with conflicts, "
                                                   + "0 ambiguous, \(problems) with layout problems"), "\(run.stdout.suffix(300))")
        let parsed = try SVGText(try Data(contentsOf: svg))
        // Each conflicting cell says so, and its title names every constraint of the conflict.
        #expect(parsed.texts.filter { $0.hasPrefix("conflict: wide.layout:") }.count == conflicts)
        #expect(parsed.texts.filter { $0.contains("(all of: ") && $0.contains("wide.layout:5: body.width >= 400") }.count == conflicts)
        #expect(parsed.texts.contains("ok"))
        // Headers: a row per device and orientation, a column per arrangement and window; one scale for all.
        for header in ["ipad-9.7", "iphone-12-pro-max", "landscape", "portrait", "full", "split-two-thirds", "slide-over",
                       "secondary window", "slide-over window"] {
            #expect(parsed.texts.contains(header), "header \(header)")
        }
        #expect(parsed.texts.contains { $0.hasPrefix("every window at one scale: 100 pt = ") })
        #expect(parsed.overlappingTexts.isEmpty, "no text over another: \(parsed.overlappingTexts.prefix(5))")
        // 30 devices x 2 orientations x 2 directions (the H: line lays out leading to trailing) x 9 columns: the
        // cases, and "not offered" in every other card.
        #expect(parsed.texts.filter { $0 == "not offered" }.count == 30 * 2 * 2 * 9 - lines.count)
        #expect(parsed.texts.contains("right-to-left"), "the rows of the second direction say so")
        // --device keeps that device's rows; an unknown one is refused with the known ones. --png draws the same.
        let one = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--device", "ipad-9.7",
                                                                   "--svg", svg.path, "--png", png.path])
        let size = try pngSize(try Data(contentsOf: png))
        let small = try SVGText(try Data(contentsOf: svg))
        #expect(size == (small.size!.width, small.size!.height))
        #expect(one.status == 0 && one.stdout.contains("\n32 cases: "), "9 arrangements' windows in landscape, 7 in portrait, both directions: \(one.stdout)")
        #expect(try SVGText(try Data(contentsOf: svg)).texts.contains("iphone-12") == false)
        let unknown = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--device", "nope", "--svg", svg.path])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown device 'nope'; known: ipad-"), "\(unknown.stderr)")
        // --widths: free-form windows, a column each; below 400 pt they conflict, from 400 they solve.
        let widths = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--widths", "320:480:40",
                                                                      "--height", "600", "--svg", svg.path])
        #expect(widths.status == 0 && widths.stdout.hasPrefix("10 cases: 6 ok, 4 with conflicts"), "5 widths, both directions: \(widths)")
        let free = try SVGText(try Data(contentsOf: svg)).texts
        #expect(free.contains("320 pt") && free.contains("480 pt") && free.contains("free-form window") && !free.contains("not offered"))
        let bad = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--widths", "320", "--svg", svg.path])
        #expect(bad.status == 64 && bad.stderr.contains("--widths takes FROM:TO:STEP"), "\(bad.stderr)")
        // A broken file: exit 65 and file:line:column, and no picture.
        try "app mail\nview body\nbody.wdth == 3\n".write(to: layout, atomically: true, encoding: .utf8)
        let broken = try await ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--svg", svg.path + ".2"])
        #expect(broken.status == 65 && broken.stderr.contains("wide.layout:3:6: expected an attribute"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: svg.path + ".2"))
    }
}
