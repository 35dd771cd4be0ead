import Foundation
import TestSupport
import Testing

/// The D-Bus API's cookbook (docs/dbus-api.md), line by line, against a live daemon, and the README's first
/// steps: the docs cannot drift from the code.
@Suite struct CookbookTests {
    /// The command lines of the first ```sh block after `heading` in `document` (a path in the repository).
    static func lines(after heading: String, in document: String = "README.md") throws -> [String] {
        let readme = try String(contentsOf: Binaries.repository.appendingPathComponent(document), encoding: .utf8)
        guard let section = readme.range(of: heading),
              let start = readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex),
              let end = readme.range(of: "```", range: start.upperBound..<readme.endIndex)
        else { throw TestFailure("\(document) has no ```sh block after \(heading)") }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test func everyCookbookLineRuns() async throws {
        let fixture = try await DaemonFixture()
        let lines = try Self.lines(after: "## Cookbook", in: "docs/dbus-api.md")
        #expect(lines.count >= 25)
        for line in lines {
            let result = try await fixture.run("bash", ["-c", line])
            #expect(result.status == 0, "\(line)\n\(result.stderr)")
        }
        // The drags did what the comments say: a 50/50 split, then notes dismissed and opened again.
        let state = try await fixture.dbusSend("GetState").stdout
        #expect(state.contains("\"split-two-thirds\"") && state.contains("/org/traitd/Layout1/window/notes"))
        let restoration = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1/window/mail",
                                              "org.traitd.Layout1.Window", "RestorationState"])
        #expect(restoration.stdout.contains("\"selection\" s \"inbox/42\""), "\(restoration)")
        // Every method and property of both interfaces appears in the cookbook.
        let text = lines.joined(separator: "\n")
        for name in ["SetDevice", "Rotate", "SetArrangement", "OpenApp", "CloseApp", "ListDevices", "GetState",
                     "Device", "Orientation", "ScreenSize", "Scale", "Arrangement", "Windows", "Serial",
                     "App", "Role", "Frame", "HorizontalSizeClass", "VerticalSizeClass", "Traits", "State", "Adapters", "Layouts",
                     "BeginDividerDrag", "MoveDivider", "EndDividerDrag", "RegisterAdapter", "ListAdapters", "GetRestorationState",
                     "SetRestorationState", "DividerPosition", "Dragging", "BackgroundApps", "LayoutExtras",
                     "RestorationState"] {
            #expect(text.contains(name), "the cookbook shows \(name)")
        }
    }

    @Test func theFirstStepsRotationLineWorks() async throws {
        let fixture = try await DaemonFixture()
        let lines = try Self.lines(after: "In a third terminal")
        #expect(lines.count == 1)
        #expect(try await fixture.run("bash", ["-c", lines[0]]).status == 0)
        let orientation = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                              "org.traitd.Layout1.Display", "Orientation"])
        #expect(orientation.stdout.contains("portrait"))
    }
}
