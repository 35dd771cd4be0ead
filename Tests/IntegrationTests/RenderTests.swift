import Foundation
import TestSupport
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
        private var current = ""
        private var inText = false

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
            inText = name == "text" || name == "title"
            current = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { if inText { current += string } }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if inText { texts.append(current) }
            inText = false
        }
    }

    @Test func renderDrawsEveryWindowAndEveryReportedElement() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture)
        try await recorder.eventually("both windows' layouts") {
            let state = try? await recorder.client.state()
            return state?.window("mail")?.layouts.count == 3 && state?.window("notes")?.layouts.count == 3
        }
        let folder = fixture.bus.folder
        let svg = folder.appendingPathComponent("screen.svg"), png = folder.appendingPathComponent("screen.png")
        let run = try fixture.traitctl(["render", "--svg", svg.path, "--png", png.path])
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
        let svg = try fixture.traitctl(["render", "--svg", "-"])
        #expect(svg.status == 0, "\(svg.stderr)")
        let parsed = try SVGText(Data(svg.stdout.utf8))
        #expect(parsed.texts.joined(separator: "\n").contains("ipad-9.7 · landscape-left · split-two-thirds"))
        // A PNG is not text: look at its first eight bytes through od, in a pipe as a script would.
        let png = try fixture.run("sh", ["-c", "\"$0\" render --png - | od -An -tx1 -N8", Binaries.path("traitctl")])
        #expect(png.stdout.split(separator: " ").joined(separator: " ").hasPrefix("89 50 4e 47 0d 0a 1a 0a"), "\(png)")
        let both = try fixture.traitctl(["render", "--svg", "-", "--png", "-"])
        #expect(both.status == 1 && both.stderr.contains("both ask for standard output"), "\(both.stderr)")
    }

    @Test func renderNeedsAFileAndADaemon() throws {
        let none = try ChildProcess.run(Binaries.path("traitctl"), ["render"])
        #expect(none.status == 64 && none.stderr.contains("give --svg FILE, --png FILE, or both"))
        let bus = try PrivateBus()
        let noDaemon = try ChildProcess.run(Binaries.path("traitctl"), ["render", "--svg", "/dev/null", "--bus", bus.address])
        #expect(noDaemon.status == 1 && noDaemon.stderr.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(noDaemon.stderr)")
    }

    @Test func theMatrixDrawsEveryCaseAndMarksConflicts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // At least 400 pt wide: every 320 pt window conflicts.
        let layout = folder.appendingPathComponent("wide.layout")
        try "app mail\nview body\nH:|[body]|\nV:|[body]|\nbody.width >= 400\n".write(to: layout, atomically: true, encoding: .utf8)
        let svg = folder.appendingPathComponent("sheet.svg"), png = folder.appendingPathComponent("sheet.png")
        let run = try ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--svg", svg.path, "--png", png.path])
        #expect(run.status == 0, "\(run.stderr)")
        let check = try ChildProcess.run(Binaries.path("traitctl"), ["layout", "check", layout.path])
        let lines = check.stdout.split(separator: "\n").dropFirst().dropLast()
        let conflicts = lines.filter { $0.contains("conflict:") }.count
        #expect(conflicts > 0)
        #expect(run.stdout.contains("\(lines.count) cases: \(lines.count - conflicts) ok, \(conflicts) with conflicts, 0 ambiguous"),
                "\(run.stdout)")
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
        // 16 devices x 2 orientations x 9 columns: the cases, and "not offered" in every other card.
        #expect(parsed.texts.filter { $0 == "not offered" }.count == 16 * 2 * 9 - lines.count)
        let size = try pngSize(try Data(contentsOf: png))
        #expect(size == (parsed.size!.width, parsed.size!.height))
        // A broken file: exit 65 and file:line:column, and no picture.
        try "app mail\nview body\nbody.wdth == 3\n".write(to: layout, atomically: true, encoding: .utf8)
        let broken = try ChildProcess.run(Binaries.path("traitctl"), ["layout", "matrix", layout.path, "--svg", svg.path + ".2"])
        #expect(broken.status == 65 && broken.stderr.contains("wide.layout:3:6: expected an attribute"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: svg.path + ".2"))
    }
}
