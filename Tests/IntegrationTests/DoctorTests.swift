import Foundation
import TestSupport
import Testing

/// `traitctl doctor`: each part a run needs, checked for real (the bus and traitd on it, the binaries, the
/// desktop bridge's display and accessibility bus, Chromium, fonts, Python), a line each, and what to do about
/// a part that fails; with `--app` and `--web` an app and a page brought up through the bridges.
@Suite struct DoctorTests {
    let traitctl = Binaries.path("traitctl")

    @Test func aMachineWithEverythingPassesAndAnAppAndAPageComeUp() async throws {
        let fixture = try await DaemonFixture()
        let page = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/adaptive.html").path
        let run = try await ChildProcess.run(traitctl, ["doctor", "--bus", fixture.bus.address, "--app", "kcalc", "--web", "file://\(page)"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for part in ["bus", "traitd", "traitd-adapters", "Xvfb", "accessibility bus", "chromium", "fonts", "python"] {
            #expect(lines.contains { $0.hasPrefix("ok   \(part): ") }, "\(part) in:\n\(run.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("ok   traitd: on the bus as ") && $0.hasSuffix(", 0.1.0") }, "\(run.stdout)")
        #expect(lines.contains("warn portal: no settings portal on this bus: libadwaita apps under test will not follow dark mode and contrast (traitd --portal)"))
        #expect(lines.contains { $0.hasPrefix("ok   app kcalc: ") && $0.contains("elements read through the desktop bridge") }, "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("ok   page file://") && $0.contains("read through the web bridge") }, "\(run.stdout)")
    }

    /// Chromium missing and no daemon on the bus: each one line with its fix, exit 1; what is there still ok.
    @Test func whatIsMissingIsOneLineWithItsFix() async throws {
        let bus = try await PrivateBus()
        let run = try await ChildProcess.run(traitctl, ["doctor", "--bus", bus.address, "--chromium", "/nonexistent/chromium"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("FAIL traitd: org.traitd.Layout1 is not on the \(bus.address) bus: start traitd (make run, or traitd --bus ...)"),
                "\(run.stdout)")
        #expect(lines.contains("FAIL chromium: no browser at /nonexistent/chromium: web pages cannot be bridged (apt install chromium, or --chromium PATH)"),
                "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("ok   Xvfb: ") } && lines.filter { $0.hasPrefix("FAIL") }.count == 2, "\(run.stdout)")
    }
}
