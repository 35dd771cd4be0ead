import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// One meaning of background on the bus: `BackgroundApps`, `traitctl status` and each window's `State` agree,
/// and a window off screen never publishes another device's geometry.
@Suite struct BackgroundTests {
    @Test func aWindowOffScreenIsListedEverywhereAndFollowsADeviceChangeSilently() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        // Default split; full screen sends notes off screen, its window kept.
        let full = try await recorder.client.setArrangement(.full)
        var state = try await recorder.client.state()
        #expect(state.backgroundApps == ["notes"] && state.window("notes")?.state == .background)
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("in the background: notes"), "\(status.stdout)")
        // Another device: notes takes the 11-inch's 2/3 secondary side (no 20 pt status bar), with no transition.
        let change = try await fixture.traitctl(["set", "device", "ipad-pro-11", "--wait"])
        #expect(change.status == 0, "\(change)")
        state = try await recorder.client.state()
        let notes = try #require(state.window("notes"))
        #expect(notes.state == .background && notes.frame == Rect(x: 819, y: 0, width: 375, height: 834), "\(notes.frame)")
        #expect(notes.safeAreaInsets == EdgeInsets(top: 24, left: 0, bottom: 20, right: 0), "\(notes.safeAreaInsets)")
        #expect(state.backgroundApps == ["notes"])
        #expect(!change.stdout.contains("notes TransitionCompleted"), "a suspended app gets no transition: \(change.stdout)")
        // Its new properties were published all the same.
        try await recorder.wait("notes's new frame") { events in
            events.contains { $0.app == "notes" && $0.member == "PropertiesChanged" && ($0.changes?.names.contains("Frame") ?? false) }
        }
        #expect(recorder.all.allSatisfy { !($0.app == "notes" && $0.member == "ViewWillTransitionToSize") })
        // Back in a split: notes comes back on screen, and the lists agree again.
        try await recorder.client.setArrangement(.splitHalf)
        state = try await recorder.client.state()
        #expect(state.backgroundApps.isEmpty && state.windows.allSatisfy { $0.state == .active })
        #expect(try await fixture.traitctl(["status"]).stdout.contains("in the background: none"))
        withExtendedLifetime(full) {}
    }
}
