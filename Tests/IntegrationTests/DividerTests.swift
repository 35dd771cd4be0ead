import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// The Split View divider on the bus, driven with dbus-send (as a script would) and read back with TraitClient.
/// The default display: a 9.7-inch iPad in landscape, mail 2/3 (694 pt) and notes 1/3.
@Suite struct DividerTests {
    func send(_ fixture: DaemonFixture, _ method: String, _ arguments: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await fixture.dbusSend(method, arguments)
    }

    @Test func beginMovesAndEndRunAsSeedDocument004Says() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        #expect(try await send(fixture, "BeginDividerDrag").status == 0)
        try await recorder.wait("both apps resign active") { $0.filter { $0.member == "WillResignActive" }.count == 2 }
        var state = try await recorder.client.state()
        #expect(state.dragging && state.windows.allSatisfy { $0.state == "inactive" })
        // 694 -> 300 crosses the 1/2 and the 1/3 snap points: two snapshot transitions for each app.
        #expect(try await send(fixture, "MoveDivider", ["double:300"]).status == 0)
        let sizes = try await recorder.wait("two snapshot stages") { events in
            events.filter { $0.member == "ViewWillTransitionToSize" }.count == 4
        }.filter { $0.member == "ViewWillTransitionToSize" }
        #expect(sizes.map { "\($0.app!) \($0.size!.width)" } == ["mail 507.0", "notes 507.0", "mail 320.0", "notes 694.0"])
        #expect(sizes.allSatisfy { $0.context?.reason == .snapshot })
        #expect(sizes.allSatisfy { $0.context?.snapshot == true })
        state = try await recorder.client.state()
        #expect(state.dividerPosition == 300 && state.arrangement == "split-two-thirds", "the arrangement changes on release")
        // Release near 320: the 1/3 split; both apps active again.
        try await recorder.clear()
        #expect(try await send(fixture, "EndDividerDrag").status == 0)
        try await recorder.wait("both apps become active") { $0.filter { $0.member == "DidBecomeActive" }.count == 2 }
        state = try await recorder.client.state()
        #expect(state.arrangement == "split-one-third" && !state.dragging && state.dividerPosition == 320)
        #expect(state.windows.allSatisfy { $0.state == "active" })
        #expect(recorder.all.contains { $0.app == nil && $0.member == "PropertiesChanged" && $0.description.contains("Arrangement=split-one-third") })
    }

    @Test(arguments: [(Arrangement.splitOneThird, 290.0), (.splitHalf, 530), (.splitTwoThirds, 700)])
    func releaseSnapsToEveryOfferedSplit(arrangement: Arrangement, x: Double) async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setArrangement(arrangement == .splitTwoThirds ? .splitHalf : .splitTwoThirds)
        try await client.beginDividerDrag()
        try await client.moveDivider(to: x)
        try await client.endDividerDrag()
        let state = try await client.state()
        #expect(state.arrangement == arrangement && state.windows.count == 2)
        #expect(state.windows.allSatisfy { $0.state == "active" })
    }

    @Test(arguments: [("left", 40.0, "mail", "notes"), ("right", 1000, "notes", "mail")])
    func draggingToAnEdgeDismissesThatSidesApp(side: String, x: Double, gone: String, stays: String) async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        try await recorder.client.setRestorationState(["selection": .string("inbox/42")], for: gone)
        #expect(try await send(fixture, "BeginDividerDrag").status == 0)
        #expect(try await send(fixture, "MoveDivider", ["double:\(x)"]).status == 0)
        #expect(try await send(fixture, "EndDividerDrag").status == 0)
        try await recorder.wait("\(gone)'s window to go") { events in
            events.contains { $0.member == "InterfacesRemoved" && $0.description.contains("window \(gone)") }
        }
        // The app hears DidEnterBackground before its window object goes.
        let events = recorder.all
        let background = try #require(events.firstIndex { $0.app == gone && $0.member == "DidEnterBackground" })
        let removed = try #require(events.firstIndex { $0.member == "InterfacesRemoved" })
        #expect(background < removed)
        let state = try await recorder.client.state()
        #expect(state.windows.map(\.app) == [stays] && state.arrangement == "full" && state.backgroundApps == [gone])
        #expect(state.window(stays)?.frame == [0, 0, 1024, 768] && state.window(stays)?.role == "primary")
        #expect(state.window(stays)?.state == "active")
        // Re-opening the dismissed app brings it back from the background with its state intact.
        try await recorder.clear()
        try await recorder.client.openApp(gone, role: .secondary)
        try await recorder.wait("\(gone) to come back") { $0.contains { $0.app == gone && $0.member == "DidBecomeActive" } }
        #expect(recorder.all.filter { $0.app == gone && ($0.member.hasSuffix("Foreground") || $0.member == "DidBecomeActive") }
            .map(\.member) == ["WillEnterForeground", "DidBecomeActive"])
        #expect(try await recorder.client.restorationState(of: gone) == ["selection": .string("inbox/42")])
    }

    @Test func aDragThatReturnsToTheStartChangesNothingTheAppKeeps() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let restoration: [String: DBusValue] = ["scroll": .double(1234.5), "path": .strings(["inbox", "42"])]
        try await client.setRestorationState(restoration, for: "mail")
        let before = try await client.state()
        try await client.beginDividerDrag()
        for x in [600.0, 400, 250, 500, 694] { try await client.moveDivider(to: x) }
        try await client.endDividerDrag()
        let after = try await client.state()
        #expect(after.windows == before.windows && after.arrangement == before.arrangement)
        #expect(try await client.restorationState(of: "mail") == restoration)
    }

    @Test func callsOutOfOrderOrMalformedAreRefusedAndChangeNothing() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let start = try await client.state()
        for method in ["MoveDivider", "EndDividerDrag"] {
            let result = try await send(fixture, method, method == "MoveDivider" ? ["double:400"] : [])
            #expect(result.stderr.contains("org.traitd.Layout1.Error.NotDragging"), "\(result)")
        }
        #expect(try await client.state() == start)
        try await client.beginDividerDrag()
        let dragging = try await client.state()
        let second = try await send(fixture, "BeginDividerDrag")
        #expect(second.stderr.contains("org.traitd.Layout1.Error.Dragging"))
        let arrangement = try await send(fixture, "SetArrangement", ["string:full"])
        #expect(arrangement.stderr.contains("org.traitd.Layout1.Error.Dragging") && arrangement.stderr.contains("EndDividerDrag"))
        // NaN, infinity and positions off the track, through busctl (which writes any double).
        for bad in ["nan", "inf", "-1", "1015", "1e300"] {
            let result = try await fixture.busctl(["call", "--", "org.traitd.Layout1", "/org/traitd/Layout1",
                                             "org.traitd.Layout1.Display", "MoveDivider", "d", bad])
            #expect(result.status != 0 && result.stderr.contains("divider position must be a number from 0 to 1014"), "\(bad): \(result)")
        }
        #expect(try await client.state() == dragging)
        try await client.endDividerDrag()
        // No divider outside a split.
        try await client.setArrangement(.full)
        let none = try await send(fixture, "BeginDividerDrag")
        #expect(none.stderr.contains("org.traitd.Layout1.Error.NoDivider") && none.stderr.contains("split-half"))
    }

    @Test func aRotationDuringADragIsHandled() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        try await recorder.client.beginDividerDrag()
        try await recorder.client.moveDivider(to: 507)
        try await recorder.client.rotate(to: .portrait)
        var state = try await recorder.client.state()
        #expect(state.dragging && state.orientation == "portrait" && state.dividerPosition == 379)
        #expect(state.windows.allSatisfy { $0.state == "inactive" })
        #expect(recorder.all.contains { $0.member == "ViewWillTransitionToSize" && $0.description.contains("reason=rotation") })
        try await recorder.client.moveDivider(to: 300)
        try await recorder.client.endDividerDrag()
        state = try await recorder.client.state()
        #expect(state.arrangement == "split-one-third" && !state.dragging)
        #expect(state.window("mail")?.frame == [0, 0, 320, 1024] && state.windows.allSatisfy { $0.state == "active" })
    }
}
