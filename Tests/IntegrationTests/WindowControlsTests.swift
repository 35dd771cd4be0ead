import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// iPadOS 26's window controls through the bus: `WindowControls` and `CornerAdaptedInsets` of a Stage Manager
/// window in both directions (busctl), none once it fills the screen; a layout file's toolbar button on the
/// `safeHorizontal` guide clear of them, and a title pinned to the corner under them (`under-window-controls`).
@Suite(.serialized) struct WindowControlsTests {
    @Test func aStageWindowPublishesItsControlsAndTheAdaptedInsets() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-controls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            app mail
            view back title
            kind control back
            kind text title
            back.leading == safeHorizontal.leading + 8
            back.top == safe.top
            back.width == 60
            back.height == 44
            title.leading == super.leading
            title.top == safe.top
            title.width == 70
            title.height == 30

            """.write(to: folder.appendingPathComponent("toolbar.layout"), atomically: true, encoding: .utf8)
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--layouts", folder.path])
        try await recorder.until("the toolbar's first layout") { (try? await recorder.layouts(of: "mail").frames["toolbar.layout"]) != nil }
        _ = try await recorder.transition(of: "mail", "stage-manager") { _ = try await recorder.client.setWindowing(.stageManager) }
        let mail = "/org/traitd/Layout1/window/mail"
        let read = try await fixture.busctl(["get-property", "org.traitd.Layout1", mail, "org.traitd.Layout1.Window",
                                             "WindowControls", "CornerAdaptedInsets", "SafeAreaInsets"])
        // mail keeps its Split View frame at the screen's top: the status bar's 20 pt, and the controls over them.
        #expect(read.stdout == "(dddd) 0 0 80 32\na{s(dddd)} 2 \"horizontal\" 20 80 0 0 \"vertical\" 32 0 0 0\n(dddd) 20 0 0 0\n", "\(read)")
        var frames = try await recorder.layouts(of: "mail").frames["toolbar.layout"] ?? [:]
        #expect(frames["back"] == [88, 20, 60, 44], "\(frames)")
        var state = try await recorder.client.state()
        let problems = state.window("mail")?.layoutProblems ?? []
        #expect(problems.map(\.rule) == [.underWindowControls] && problems.first?.element == "title", "\(problems)")
        #expect(problems.first?.message == "text 'title' (0, 20, 70, 30) lies under the window controls (0, 0, 80, 32) by 70 x 12 pt; lay it out on safeHorizontal or safeVertical")
        // Right to left: the controls at the top right, the leading edge (now the right) pushed past them.
        _ = try await recorder.transition(of: "mail", "right-to-left") { _ = try await recorder.client.setTraits([.direction: "right-to-left"]) }
        let rtl = try await fixture.busctl(["get-property", "org.traitd.Layout1", mail, "org.traitd.Layout1.Window", "WindowControls", "CornerAdaptedInsets"])
        state = try await recorder.client.state()
        let width = try #require(state.window("mail")?.frame.width)
        #expect(rtl.stdout == "(dddd) \((width - 80).compact) 0 80 32\na{s(dddd)} 2 \"horizontal\" 20 0 0 80 \"vertical\" 32 0 0 0\n", "\(rtl)")
        frames = try await recorder.layouts(of: "mail").frames["toolbar.layout"] ?? [:]
        #expect(frames["back"] == [width - 88 - 60, 20, 60, 44], "\(frames)")
        // Filling the screen: no controls, the adapted insets are the safe area (the status bar).
        _ = try await recorder.transition(of: "mail", "full") { _ = try await recorder.client.tile("mail", .full) }
        let full = try await fixture.busctl(["get-property", "org.traitd.Layout1", mail, "org.traitd.Layout1.Window", "WindowControls", "CornerAdaptedInsets"])
        #expect(full.stdout == "(dddd) 0 0 0 0\na{s(dddd)} 2 \"horizontal\" 20 0 0 0 \"vertical\" 20 0 0 0\n", "\(full)")
        state = try await recorder.client.state()
        #expect(state.window("mail")?.layoutProblems.contains { $0.rule == .underWindowControls } == false)
        withExtendedLifetime(host) {}
    }
}
