import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// What a subscriber sees, through TraitClient.
@Suite struct SignalTests {
    /// Collects events until `stop` says so (or 10 s pass).
    func collect(_ events: AsyncStream<TraitEvent>, until stop: @escaping @Sendable ([TraitEvent]) -> Bool) async throws -> [TraitEvent] {
        try await withThrowingTaskGroup(of: [TraitEvent]?.self) { group in
            group.addTask {
                var seen: [TraitEvent] = []
                for await event in events {
                    seen.append(event)
                    if stop(seen) { return seen }
                }
                return seen
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            return try #require(first, "timed out waiting for signals")
        }
    }

    @Test func rotationSignalsArriveInUIKitOrder() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let events = try await client.events()
        try await client.rotate(to: "portrait")
        let seen = try await collect(events) { $0.filter { $0.member == "TransitionCompleted" }.count == 2 }
        // mail: 694 R -> 438 C (size and traits); notes: 320 C -> 320 C but taller (size only).
        let mail = seen.filter { $0.app == "mail" }.map(\.member)
        #expect(mail == ["WillTransitionToTraitCollection", "ViewWillTransitionToSize", "PropertiesChanged",
                         "TraitCollectionDidChange", "TransitionCompleted"])
        let notes = seen.filter { $0.app == "notes" }.map(\.member)
        #expect(notes == ["ViewWillTransitionToSize", "PropertiesChanged", "TransitionCompleted"])
        // One id per window, carried by each of its signals; ids differ between windows.
        let mailIDs = Set(seen.filter { $0.app == "mail" }.compactMap(\.transitionID))
        let notesIDs = Set(seen.filter { $0.app == "notes" }.compactMap(\.transitionID))
        #expect(mailIDs.count == 1 && notesIDs.count == 1 && mailIDs != notesIDs)
        // The display's new values come after every "will" and before any "did".
        let displayIndex = try #require(seen.firstIndex { $0.app == nil && $0.member == "PropertiesChanged" })
        let lastWill = try #require(seen.lastIndex { $0.member.hasPrefix("Will") || $0.member == "ViewWillTransitionToSize" })
        let firstDid = try #require(seen.firstIndex { $0.member == "TraitCollectionDidChange" })
        #expect(lastWill < displayIndex && displayIndex < firstDid)
        // The context of ViewWillTransitionToSize.
        let size = try #require(seen.first { $0.app == "mail" && $0.member == "ViewWillTransitionToSize" })
        #expect(size.arguments[1] == .double(438) && size.arguments[2] == .double(1024))
        let context = try #require(size.arguments[3].dictionary)
        #expect(context["reason"] == .string("rotation") && context["orientation"] == .string("portrait"))
        #expect(context["duration"] == .double(0.3) && context["frame"] == .doubles([0, 0, 438, 1024]))
        // The new traits, and the previous ones after the change.
        let will = try #require(seen.first { $0.member == "WillTransitionToTraitCollection" }?.arguments[1].dictionary)
        #expect(will["horizontalSizeClass"] == .string("compact"))
        let did = try #require(seen.first { $0.member == "TraitCollectionDidChange" }?.arguments[1].dictionary)
        #expect(did["horizontalSizeClass"] == .string("regular"))
        // The properties hold the new values by the time the "did" signal is read.
        let snapshot = try await client.state()
        #expect(snapshot.window("mail")?.frame == [0, 0, 438, 1024] && snapshot.serial == 2)
    }

    @Test func sizeOnlyAndUnchangedWindows() async throws {
        let fixture = try await DaemonFixture(arguments: [])
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setDevice("ipad-pro-12.9")
        try await client.setArrangement("full")
        let events = try await client.events()
        // 1366 R -> 981 R: only the size changes for mail; notes comes back from the background.
        try await client.setArrangement("split-two-thirds")
        let seen = try await collect(events) { $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" } }
        let mail = seen.filter { $0.app == "mail" }.map(\.member)
        #expect(mail == ["ViewWillTransitionToSize", "PropertiesChanged", "TransitionCompleted"])
        let notesStates = seen.filter { $0.app == "notes" }.map(\.member)
        #expect(notesStates.first == "WillEnterForeground" && notesStates.contains("DidBecomeActive"))
        // A 180-degree turn changes no size and no trait, yet each window on screen hears ViewWillTransitionToSize
        // with its unchanged size (UIKit does the same), and its transition completes; no trait signal.
        let more = try await client.events()
        try await client.rotate(to: "landscape-right")
        let after = try await collect(more) { $0.filter { $0.member == "TransitionCompleted" }.count == 2 }
        for app in ["mail", "notes"] {
            #expect(after.filter { $0.app == app }.map(\.member) == ["ViewWillTransitionToSize", "TransitionCompleted"], "\(app)")
        }
        let turn = try #require(after.first { $0.app == "mail" && $0.member == "ViewWillTransitionToSize" })
        #expect(turn.arguments[1] == .double(981) && turn.arguments[2] == .double(1024))
        let context = try #require(turn.arguments[3].dictionary)
        #expect(context["reason"] == .string("rotation") && context["orientation"] == .string("landscape-right"))
        #expect(context["duration"] == .double(0.6), "a half turn animates twice as long as a quarter turn")
        let display = try #require(after.first { $0.member == "PropertiesChanged" && $0.app == nil })
        #expect(display.arguments[1].dictionary?["Orientation"] == .string("landscape-right"))
    }

    @Test func objectManagerAnnouncesWindows() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let events = try await client.events()
        try await client.openApp("film", role: "pip")
        try await client.closeApp("film")
        let seen = try await collect(events) { $0.contains { $0.member == "InterfacesRemoved" } }
        let added = try #require(seen.first { $0.member == "InterfacesAdded" })
        #expect(added.arguments[0] == .objectPath("/org/traitd/Layout1/window/film"))
        let interfaces = try #require(added.arguments[1].dictionary)
        #expect(interfaces["org.traitd.Layout1.Window"]?.dictionary?["Role"] == .string("pip"))
        let removed = try #require(seen.first { $0.member == "InterfacesRemoved" })
        #expect(removed.arguments[1].strings?.contains("org.traitd.Layout1.Window") == true)
        // Serial went 1 -> 2 -> 3, announced each time.
        let serials = seen.compactMap { $0.app == nil ? $0.arguments[1].dictionary?["Serial"] : nil }
        #expect(serials == [.uint64(2), .uint64(3)])
    }

    @Test func transitionIDsIncreaseAndEachCompletesOnce() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let events = try await client.events()
        let orientations = ["portrait", "landscape-left", "portrait-upside-down", "landscape-right"]
        for i in 0..<20 { try await client.rotate(to: orientations[i % 4]) }
        let seen = try await collect(events) { $0.filter { $0.member == "TransitionCompleted" }.count == 40 }
        let completed = seen.filter { $0.member == "TransitionCompleted" }.compactMap(\.transitionID)
        #expect(completed == completed.sorted() && Set(completed).count == completed.count)
        let started = Set(seen.filter { $0.member == "ViewWillTransitionToSize" }.compactMap(\.transitionID))
        #expect(started == Set(completed) && completed.count == 20 * 2)
        let state = try await client.state()
        #expect(state.orientation == "landscape-right" && state.serial == 21)
    }
}
