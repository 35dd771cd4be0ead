import Foundation
import TestSupport
import Testing

/// The interface XML is a contract other languages can build on: gdbus-codegen turns it into a GObject proxy, a
/// small C client (examples/c-client) compiles against it, and reads, calls and signals work through it.
@Suite(.serialized) struct GeneratedClientTests {
    /// Builds examples/c-client under .build/c-client (make rebuilds only what changed, so the second test's
    /// call costs nothing); returns the binary's path.
    static func build() async throws -> String {
        let out = Binaries.repository.appendingPathComponent(".build/c-client")
        let make = try await ChildProcess.run(
            "make", ["-s", "-C", Binaries.repository.appendingPathComponent("examples/c-client").path, "OUT=\(out.path)"], timeout: 120)
        guard make.status == 0 else { throw TestFailure("make -C examples/c-client failed:\n\(make.stdout)\(make.stderr)") }
        return out.appendingPathComponent("traitd-follow").path
    }

    @Test func theGeneratedProxyReadsCallsAndReceivesSignals() async throws {
        let client = try await Self.build()
        // The C client rotates and follows mail's window; busctl (sd-bus) then reads the frame independently.
        let script = """
            \(client) mail portrait || exit $?
            echo "busctl $(busctl --user get-property org.traitd.Layout1 /org/traitd/Layout1/window/mail org.traitd.Layout1.Window Frame)"
            """
        // The transition waits for the host's reports, not for 500 ms of a busy machine (a ThreadSanitizer build
        // under load missed them): a test that asserts who reported gives the deadline room, as every other does.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("c-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("traitd.yaml")
        try "transitions:\n  deadline-ms: 60000\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try await ChildProcess.run(Binaries.path("traitctl"), ["run", "--adapters", "--config", config.path, "--", "sh", "-c", script])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.prefix(5) == [
            "device ipad-9.7 landscape-left 1024 x 768 @2x split-two-thirds serial 1",
            "window mail role primary state active",
            "frame 0, 0, 694 x 768",
            "size classes regular regular",
            "Rotate(portrait) accepted",
        ], "\(run.stdout)")
        // The reply's `at`: mail's and notes's transitions.
        #expect(lines.contains("started 2 transition(s)"), "\(run.stdout)")
        let resize = try #require(lines.first { $0.hasPrefix("ViewWillTransitionToSize") }, "\(run.stdout)")
        #expect(resize.hasSuffix(" 438 x 1024 reason=rotation orientation=portrait duration=0.3s"), "\(resize)")
        let completed = try #require(lines.first { $0.hasPrefix("TransitionCompleted") }, "\(run.stdout)")
        // mail's adapters (from the host) reported; none missed or failed.
        #expect(completed.contains("reported=split-columns,support-panel") && completed.hasSuffix(" missed=- failed=-"), "\(completed)")
        // The proxy's cached properties followed PropertiesChanged, and agree with what sd-bus reads.
        #expect(lines.contains("frame now 0, 0, 438 x 1024") && lines.contains("size classes now compact regular"))
        #expect(lines.last == "busctl (dddd) 0 0 438 1024", "\(run.stdout)")
    }

    @Test func aRefusalArrivesAsANamedError() async throws {
        let client = try await Self.build()
        let run = try await ChildProcess.run(Binaries.path("traitctl"), ["run", "--", client, "mail", "sideways"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("Rotate(sideways) refused: org.freedesktop.DBus.Error.InvalidArgs: unknown orientation 'sideways'"),
                "\(run.stderr)")
    }
}
