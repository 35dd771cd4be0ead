import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// Slide Over and Picture in Picture on the bus.
@Suite struct SlideOverTests {
    /// From every other arrangement the 9.7-inch iPad offers in landscape, into Slide Over and back.
    @Test(arguments: [Arrangement.full, .splitTwoThirds, .splitHalf, .splitOneThird])
    func slideOverInAndOutFromEveryArrangement(start: Arrangement) async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        try await recorder.client.setArrangement(start)
        let before = try await recorder.client.state()
        let primaryBefore = try #require(before.window("mail"))
        // The reply names the transitions the call started (the start's own may still be arriving at the recorder).
        let started = try await recorder.client.setArrangement(.slideOver)
        let over = try await recorder.client.state()
        #expect(over.arrangement == "slide-over" && over.dividerPosition == 0)
        // The overlay: the profile's Slide Over width at the right edge, the height minus 40 pt, centred.
        let notes = try #require(over.window("notes"))
        #expect(notes.role == "slide-over" && notes.frame == [704, 20, 320, 728] && notes.horizontalSizeClass == "compact")
        #expect(notes.state == "active")
        // The primary has (or keeps) the whole screen; from full screen it gets no transition at all.
        #expect(over.window("mail")?.frame == [0, 0, 1024, 768] && over.window("mail")?.role == "primary")
        for id in started { _ = try await recorder.completion(of: id) }
        let mailTransitions = recorder.all.filter { $0.app == "mail" && $0.transition.map(started.contains) == true }
        #expect(mailTransitions.isEmpty == (primaryBefore.frame == [0, 0, 1024, 768]))
        // And back.
        try await recorder.client.setArrangement(start)
        // (A secondary app in the background keeps the frame it last had on screen: the overlay's.)
        let back = try await recorder.client.state()
        let shown = { (s: DisplaySnapshot) in s.windows.filter { $0.state != "background" } }
        #expect(shown(back).map(\.frame) == shown(before).map(\.frame))
        #expect(back.windows.map(\.role) == before.windows.map(\.role) && back.windows.map(\.state) == before.windows.map(\.state))
    }

    @Test func openingAnAppInSlideOverAndPictureInPicture() async throws {
        let fixture = try await DaemonFixture(config: "apps:\n  - { name: mail, role: primary }\ndisplay:\n  arrangement: full\n")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        #expect(try await client.openApp("chat", role: .slideOver).window == "/org/traitd/Layout1/window/chat")
        var state = try await client.state()
        #expect(state.arrangement == "slide-over" && state.window("chat")?.role == "slide-over")
        // PiP: 16:9 at the Slide Over width, 20 pt from the bottom-right corner, compact both ways.
        try await client.openApp("video", role: .pip)
        state = try await client.state()
        let pip = try #require(state.window("video"))
        #expect(pip.frame == [684, 568, 320, 180] && pip.horizontalSizeClass == "compact" && pip.verticalSizeClass == "compact")
        // Only one PiP window; no PiP without a primary app underneath.
        let second = try await fixture.dbusSend("OpenApp", ["string:movie", "string:pip"])
        #expect(second.stderr.contains("org.traitd.Layout1.Error.RoleTaken"))
        try await client.closeApp("video")
        try await client.closeApp("chat")
        try await client.closeApp("mail")
        let alone = try await fixture.dbusSend("OpenApp", ["string:movie", "string:pip"])
        #expect(alone.stderr.contains("org.traitd.Layout1.Error.MissingApp") && alone.stderr.contains("no primary app"))
    }
}
