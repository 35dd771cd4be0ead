import Foundation
import TestSupport
import Testing

/// `traitctl layout solve|check`, as a script would run them.
@Suite struct LayoutCommandTests {
    static var seed: String { Binaries.repository.appendingPathComponent("Config/layouts/support-panel.layout").path }

    func traitctl(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Binaries.path("traitctl"), arguments)
    }

    func temporary(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("t-\(UUID()).layout")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func solvePrintsFramesAsJSON() async throws {
        let regular = try await traitctl(["layout", "solve", Self.seed, "--size", "1366x1024"])
        #expect(regular.status == 0)
        #expect(regular.stdout == "{\"ambiguous\":[],\"frames\":{\"main\":[0,0,992,1024],\"support\":[992,0,374,1024]},\"hidden\":[]}\n")
        let compact = try await traitctl(["layout", "solve", Self.seed, "--size", "507x768", "--w", "compact", "--orientation", "landscape"])
        #expect(compact.stdout == "{\"ambiguous\":[],\"frames\":{\"main\":[0,0,507,768]},\"hidden\":[\"support\"]}\n")
    }

    /// A solution that overflows a double: exit 2 with the constraint's file and line and what was expected
    /// (it used to reach the JSON writer as inf and stop there with a Foundation error).
    @Test func anOverflowingSolutionIsRefusedWithTheConstraintsLine() async throws {
        let file = try temporary("view a b\na.left == 0\na.top == 0\na.height == 1\na.width == 1e308\nb.left == 0\nb.top == 0\nb.height == 1\nb.width == 10 * a.width\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await traitctl(["layout", "solve", file, "--size", "100x100"])
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains(":9: b.width == 10 * a.width: makes b.width inf, not a finite number of points; expected"), "\(result)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func conflictsExitTwoAndFileErrorsSixtyFive() async throws {
        let conflicting = try temporary("view a\na.width == 10\na.width >= 20 @required\n")
        defer { try? FileManager.default.removeItem(atPath: conflicting) }
        let conflict = try await traitctl(["layout", "solve", conflicting, "--size", "100x100"])
        #expect(conflict.status == 2 && conflict.stdout.isEmpty)
        #expect(conflict.stderr.contains(":2: a.width == 10") && conflict.stderr.contains(":3: a.width >= 20 @required"))
        let broken = try temporary("view a\na.wdth == 10\n")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let syntax = try await traitctl(["layout", "solve", broken, "--size", "100x100"])
        #expect(syntax.status == 65 && syntax.stderr.hasPrefix("\(broken):2:3: expected an attribute"))
        let missing = try await traitctl(["layout", "solve", "/nonexistent.layout", "--size", "100x100"])
        #expect(missing.status == 66)
        let badSize = try await traitctl(["layout", "solve", Self.seed, "--size", "wide"])
        #expect(badSize.status == 64 && badSize.stderr.contains("--size must be WIDTHxHEIGHT"))
    }

    @Test func checkCoversEveryDeviceOrientationAndArrangement() async throws {
        let check = try await traitctl(["layout", "check", Self.seed])
        #expect(check.status == 0)
        // 12 iPads: landscape offers 5 arrangements, portrait 4; one window for full, two otherwise (192 cases).
        // 18 iPhones: full only, in landscape and portrait (36 cases). The file's H: lines lay out leading to
        // trailing, so every case is solved left to right and right to left too: 456.
        #expect(check.stdout.contains("456 cases: 456 ok, 0 with conflicts, 0 ambiguous"))
        #expect(check.stdout.contains("\nipad-9.7          landscape    split-two-thirds  primary     694x768      R/R      20,0,0,0    default       ok\n"))
        #expect(check.stdout.contains("\nipad-9.7          landscape    split-two-thirds  primary     694x768      R/R      20,0,0,0    right-to-left ok\n"))
        #expect(check.stdout.contains("\niphone-xr         landscape    full              primary     896x414      R/C      0,44,24,44  default       ok\n"))
        // The two layout files written from the Swift adapters hold everywhere too; book-pages' planted problem
        // (its page under the status bar) is found as the daemon finds it, in the daemon's words (exit 1).
        let columns = try await traitctl(["layout", "check", Self.seed.replacingOccurrences(of: "support-panel.layout", with: "split-columns.layout")])
        #expect(columns.status == 0 && columns.stdout.contains("456 cases: 456 ok, 0 with conflicts, 0 ambiguous, 0 with layout problems"))
        let pages = try await traitctl(["layout", "check", Self.seed.replacingOccurrences(of: "support-panel.layout", with: "book-pages.layout")])
        #expect(pages.status == 1 && pages.stdout.contains("456 cases: 54 ok, 0 with conflicts, 0 ambiguous, 402 with layout problems"),
                "\(pages.stdout.suffix(300))")
        #expect(pages.stdout.contains("outside-safe-area rightPage: content 'rightPage' (0, 0, 320, 1024) reaches 20 pt past the safe area's top edge"),
                "\(pages.stdout.prefix(3000))")
        // By the run's rules, as the daemon's layout-checks: the rule left out, nothing found; a rule it does not
        // know named with the ones it does.
        let off = try await traitctl(["layout", "check", Self.seed.replacingOccurrences(of: "support-panel.layout", with: "book-pages.layout"),
                                      "--off", "outside-safe-area"])
        #expect(off.status == 0 && off.stdout.contains("456 cases: 456 ok"), "\(off.stdout.suffix(300))")
        // Left out for one element: its problems go and the other page's stay (48 cases, landscape's left page
        // under the status bar); left out for both, none.
        let pagesFile = Self.seed.replacingOccurrences(of: "support-panel.layout", with: "book-pages.layout")
        let offOne = try await traitctl(["layout", "check", pagesFile, "--off", "outside-safe-area rightPage"])
        #expect(offOne.status == 1 && offOne.stdout.contains("456 cases: 408 ok, 0 with conflicts, 0 ambiguous, 48 with layout problems")
                && !offOne.stdout.contains("rightPage") && offOne.stdout.contains("outside-safe-area leftPage"), "\(offOne.stdout.suffix(300))")
        let offBoth = try await traitctl(["layout", "check", pagesFile, "--off", "outside-safe-area rightPage", "--off", "outside-safe-area leftPage"])
        #expect(offBoth.status == 0 && offBoth.stdout.contains("456 cases: 456 ok"), "\(offBoth.stdout.suffix(300))")
        let unknown = try await traitctl(["layout", "check", Self.seed, "--target-size", "48dp"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--target-size 48dp: expected apple-44pt or wcag-24px"), "\(unknown)")
        // layout matrix judges as check does: the same cases with problems, the same sentences, marked on the sheet.
        let sheet = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: sheet) }
        let matrix = try await traitctl(["layout", "matrix", Self.seed.replacingOccurrences(of: "support-panel.layout", with: "book-pages.layout"),
                                         "--svg", sheet.path])
        #expect(matrix.stdout.contains("456 cases: 54 ok, 0 with conflicts, 0 ambiguous, 402 with layout problems"), "\(matrix.stdout.suffix(300))")
        #expect(matrix.stdout.split(separator: "\n").filter { $0.contains(": outside-safe-area rightPage: content 'rightPage'") }.count >= 1,
                "\(matrix.stdout.prefix(1000))")
        let marked = try RenderTests.SVGText(try Data(contentsOf: sheet)).texts.filter { $0.hasPrefix("problem: outside-safe-area") }
        #expect(!marked.isEmpty, "each case with a problem says so in its card")
        let conflicting = try temporary("view a\nH:|[a(>=700)]|\nV:|[a]|\n")
        defer { try? FileManager.default.removeItem(atPath: conflicting) }
        let failing = try await traitctl(["layout", "check", conflicting])
        #expect(failing.status == 2 && failing.stdout.contains("conflict: "))
        let loose = try temporary("view a\nH:|[a]|\n")
        defer { try? FileManager.default.removeItem(atPath: loose) }
        let ambiguous = try await traitctl(["layout", "check", loose])
        #expect(ambiguous.status == 0 && ambiguous.stdout.contains("ambiguous: a.height, a.top"))
        #expect(ambiguous.stdout.contains("456 cases: 0 ok, 0 with conflicts, 456 ambiguous"))
        // A file that depends on the appearance and the text size is solved in each: 228 cases x (light, dark) x
        // (extra-small, large, the largest, and accessibility-medium which a section names).
        let themed = try temporary("view a\na.left == safe.left\na.top == safe.top\na.width == 10\na.height == body\n[dark]\nextra dim = true\n[content-size >= accessibility-medium]\nextra stacked = true\n")
        defer { try? FileManager.default.removeItem(atPath: themed) }
        let settings = try await traitctl(["layout", "check", themed])
        #expect(settings.stdout.contains("\(228 * 2 * 4) cases: \(228 * 2 * 4) ok"), "\(settings.stdout.suffix(200))")
        #expect(settings.stdout.contains(" dark content-size=accessibility-extra-extra-extra-large ok\n"))
    }
}
