import Foundation
import TestSupport
import Testing

/// The systemd units, rated by systemd's own analyser as `make security` does.
@Suite struct UnitFileTests {
    func rated(_ unit: String) async throws -> (exposure: Double, text: String) {
        let source = try String(contentsOf: Binaries.repository.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(unit)
        try source.replacingOccurrences(of: "@bindir@", with: "/usr/local/bin")
            .replacingOccurrences(of: "@datadir@", with: "/usr/local/share").write(to: file, atomically: true, encoding: .utf8)
        let run = try await ChildProcess.run("systemd-analyze", ["security", "--offline=true", file.path])
        let line = try #require(run.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") }, "\(run.stdout)\(run.stderr)")
        let number = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        return (try #require(number), source)
    }

    @Test(arguments: ["traitd.service", "traitd-adapters.service"])
    func userUnitsAreHardened(_ unit: String) async throws {
        let (exposure, _) = try await rated(unit)
        #expect(exposure <= 1.5, "\(unit) rates \(exposure)")
    }

    @Test func theAdapterHostUnitFollowsTheDaemon() async throws {
        let (_, text) = try await rated("traitd-adapters.service")
        #expect(text.contains("BindsTo=traitd.service") && text.contains("After=traitd.service"))
        #expect(text.contains("ExecStart=@bindir@/traitd-adapters --bus session"))
        #expect(text.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        let makefile = try String(contentsOf: Binaries.repository.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("systemd/traitd-adapters.service"), "make install installs it")
    }
}
