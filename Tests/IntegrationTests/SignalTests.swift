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
        try await client.rotate(to: .portrait)
        let seen = try await collect(events) { $0.filter { $0.member == "TransitionCompleted" }.count == 2 }
        // mail: 694 R -> 438 C (size and traits: UIKit's horizontal class, Android's width and height classes);
        // notes: 320 C -> 320 C but taller (its size, and Android's height class: 768 -> 1024 pt, medium -> expanded).
        let mail = seen.filter { $0.app == "mail" }.map(\.member)
        // Each window's scene geometry changed (frame, orientation): DidUpdateEffectiveGeometry after its properties.
        #expect(mail == ["WillTransitionToTraitCollection", "ViewWillTransitionToSize", "PropertiesChanged", "DidUpdateEffectiveGeometry",
                         "TraitCollectionDidChange", "TraitDidChange", "TraitDidChange", "TraitDidChange", "ViewWillLayoutSubviews",
                         "TransitionCompleted"])
        let notes = seen.filter { $0.app == "notes" }.map(\.member)
        #expect(notes == ["WillTransitionToTraitCollection", "ViewWillTransitionToSize", "PropertiesChanged", "DidUpdateEffectiveGeometry",
                          "TraitCollectionDidChange", "TraitDidChange", "ViewWillLayoutSubviews", "TransitionCompleted"])
        // One id per window, carried by each of its signals; ids differ between windows.
        let mailIDs = Set(seen.filter { $0.app == "mail" }.compactMap(\.transition))
        let notesIDs = Set(seen.filter { $0.app == "notes" }.compactMap(\.transition))
        #expect(mailIDs.count == 1 && notesIDs.count == 1 && mailIDs != notesIDs)
        // The display's new values come after every "will" and before any "did".
        let displayIndex = try #require(seen.firstIndex { $0.app == nil && $0.member == "PropertiesChanged" })
        let lastWill = try #require(seen.lastIndex { $0.member.hasPrefix("Will") || $0.member == "ViewWillTransitionToSize" })
        let firstDid = try #require(seen.firstIndex { $0.member == "TraitCollectionDidChange" })
        #expect(lastWill < displayIndex && displayIndex < firstDid)
        // The context of ViewWillTransitionToSize.
        let size = try #require(seen.first { $0.app == "mail" && $0.member == "ViewWillTransitionToSize" })
        #expect(size.size == Size(width: 438, height: 1024))
        let context = try #require(size.context)
        #expect(context.reason == .rotation && context.orientation == .portrait)
        #expect(context.duration == 0.3 && context.frame == Rect(x: 0, y: 0, width: 438, height: 1024))
        // The new traits, and the previous ones after the change.
        let will = try #require(seen.first { $0.member == "WillTransitionToTraitCollection" }?.traits)
        #expect(will.horizontalSizeClass == .compact)
        let did = try #require(seen.first { $0.member == "TraitCollectionDidChange" }?.traits)
        #expect(did.horizontalSizeClass == .regular)
        // The properties hold the new values by the time the "did" signal is read.
        let snapshot = try await client.state()
        #expect(snapshot.window("mail")?.frame.values == [0, 0, 438, 1024] && snapshot.serial == 2)
    }

    @Test func sizeOnlyAndUnchangedWindows() async throws {
        let fixture = try await DaemonFixture(arguments: [])
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setDevice("ipad-pro-12.9")
        try await client.setArrangement(.full)
        let events = try await client.events()
        // 1366 R -> 981 R: UIKit's size class stays; Android's width class goes large -> expanded (one trait
        // signal); notes comes back from the background.
        try await client.setArrangement(.splitTwoThirds)
        let seen = try await collect(events) { $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" } }
        let mail = seen.filter { $0.app == "mail" }.map(\.member)
        #expect(mail == ["WillTransitionToTraitCollection", "ViewWillTransitionToSize", "PropertiesChanged", "DidUpdateEffectiveGeometry",
                         "TraitCollectionDidChange", "TraitDidChange", "ViewWillLayoutSubviews", "TransitionCompleted"])
        let notesStates = seen.filter { $0.app == "notes" }.map(\.member)
        #expect(notesStates.first == "WillEnterForeground" && notesStates.contains("DidBecomeActive"))
        // A 180-degree turn changes no size and no trait, yet each window on screen hears ViewWillTransitionToSize
        // with its unchanged size (UIKit does the same), and its transition completes; no trait signal. Its scene's
        // interface orientation changed: DidUpdateEffectiveGeometry.
        let more = try await client.events()
        try await client.rotate(to: .landscapeRight)
        let after = try await collect(more) { $0.filter { $0.member == "TransitionCompleted" }.count == 2 }
        for app in ["mail", "notes"] {
            #expect(after.filter { $0.app == app }.map(\.member) == ["ViewWillTransitionToSize", "DidUpdateEffectiveGeometry", "ViewWillLayoutSubviews", "TransitionCompleted"],
                    "\(app)")
        }
        let turn = try #require(after.first { $0.app == "mail" && $0.member == "ViewWillTransitionToSize" })
        #expect(turn.size == Size(width: 981, height: 1024))
        let context = try #require(turn.context)
        #expect(context.reason == .rotation && context.orientation == .landscapeRight)
        #expect(context.duration == 0.6, "a half turn animates twice as long as a quarter turn")
        let screen = try await client.state().screenSize
        #expect(context.screenSize == screen, "the will half carries the screen in the new orientation")
        let display = try #require(after.first { $0.member == "PropertiesChanged" && $0.app == nil }?.changes)
        #expect(display[Layout1.Display.orientation] == .landscapeRight)
    }

    @Test func objectManagerAnnouncesWindows() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let events = try await client.events()
        try await client.openApp("film", role: .pip)
        try await client.closeApp("film")
        let seen = try await collect(events) { $0.contains { $0.member == "InterfacesRemoved" } }
        let added = try #require(seen.first { $0.member == "InterfacesAdded" })
        guard case .windowOpened(let window) = added else { Issue.record("\(added)"); return }
        #expect(window.path == "/org/traitd/Layout1/window/film" && window.role == .pip)
        // InterfacesRemoved is only read as windowClosed when it names the window interface's object.
        #expect(seen.contains { $0 == .windowClosed(app: "film") })
        // Serial went 1 -> 2 -> 3, announced each time.
        let serials = seen.compactMap { $0.app == nil ? $0.changes?[Layout1.Display.serial] : nil }
        #expect(serials == [2, 3])
    }

    @Test func transitionIDsIncreaseAndEachCompletesOnce() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let events = try await client.events()
        let orientations: [Orientation] = [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight]
        for i in 0..<20 { try await client.rotate(to: orientations[i % 4]) }
        let seen = try await collect(events) { $0.filter { $0.member == "TransitionCompleted" }.count == 40 }
        let completed = seen.filter { $0.member == "TransitionCompleted" }.compactMap(\.transition)
        #expect(completed == completed.sorted() && Set(completed).count == completed.count)
        let started = Set(seen.filter { $0.member == "ViewWillTransitionToSize" }.compactMap(\.transition))
        #expect(started == Set(completed) && completed.count == 20 * 2)
        let state = try await client.state()
        #expect(state.orientation == .landscapeRight && state.serial == 21)
    }
}
