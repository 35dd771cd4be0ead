import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// What an app declares and asks of the system (`SetSizeRestrictions`, `SetSupportedOrientations`,
/// `RequestGeometryUpdate`) from the connection of its adapter, and `DidUpdateEffectiveGeometry`.
@Suite(.serialized) struct AppDeclarationsTests {
    /// A daemon, a client that registered an adapter for mail (the app's own connection), and a recorder.
    func start(config: String = "transitions:\n  deadline-ms: 100\n") async throws -> (DaemonFixture, TraitClient, Recorder) {
        let fixture = try await DaemonFixture(config: config)
        let app = try TraitClient(bus: .address(fixture.bus.address))
        try await app.registerAdapter("declarer", for: "mail")
        return (fixture, app, try await Recorder(fixture))
    }

    /// Restrictions hold a live resize and refuse a SetFrame outside them; another connection may not declare;
    /// the window's geometry updates say where it was, and that it was being resized.
    @Test func sizeRestrictionsHoldALiveResizeAndRefuseASetFrame() async throws {
        let (fixture, app, recorder) = try await start()
        defer { app.close() }
        // The adapter never reports: each transition of mail ends at its 100-ms deadline, and a live-resize
        // step waits for the open one; every call below waits for its own transitions.
        func settled(_ ids: [UInt64]) async throws { for id in ids { _ = try await recorder.completion(of: id) } }
        try await settled(try await app.setWindowing(.stageManager))
        try await settled(try await app.setSizeRestrictions(of: "mail", minimum: Size(width: 500, height: 400), maximum: Size(width: 900, height: 700)))
        var state = try await app.state()
        #expect(state.window("mail")?.frame.size == Size(width: 694, height: 700), "held within the maximum at once")
        let mail = "/org/traitd/Layout1/window/mail"
        let published = try await fixture.busctl(["get-property", "org.traitd.Layout1", mail, "org.traitd.Layout1.Window", "SizeRestrictions"])
        #expect(published.stdout == "((dd)(dd)) 500 400 900 700\n", "\(published)")
        // SetFrame below the minimum: OutOfRange, naming the restrictions; nothing changes.
        let frame = try await fixture.busctl(["call", "org.traitd.Layout1", mail, "org.traitd.Layout1.Window", "SetFrame", "(dddd)", "0", "0", "400", "400"])
        #expect(frame.status != 0 && frame.stderr.contains("'mail' declared its size restrictions, 500 x 400 to 900 x 700 pt (SetSizeRestrictions); 400 x 400 is outside them"), "\(frame)")
        // A live resize past both ends is held within them.
        try await settled(try await app.beginResize("mail"))
        try await settled(try await app.resize("mail", to: Size(width: 300, height: 300)))
        state = try await app.state()
        #expect(state.window("mail")?.frame.size == Size(width: 500, height: 400))
        try await settled(try await app.resize("mail", to: Size(width: 2000, height: 2000)))
        state = try await app.state()
        #expect(state.window("mail")?.frame.size == Size(width: 900, height: 700))
        try await settled(try await app.endResize("mail"))
        let updates = try await recorder.wait("the end of the resize's geometry update") { events in
            events.contains { if case .didUpdateEffectiveGeometry("mail", _, let p) = $0 { p.interactivelyResizing && p.frame.size == Size(width: 900, height: 700) } else { false } }
        }
        // The resize's four updates, each with the geometry before it: BeginResize (not yet resizing), the two
        // steps and EndResize (resizing).
        let previous = Array(updates.compactMap { if case .didUpdateEffectiveGeometry("mail", _, let p) = $0 { p } else { nil } }.suffix(4))
        #expect(previous.map(\.frame.size) == [Size(width: 694, height: 700), Size(width: 694, height: 700), Size(width: 500, height: 400), Size(width: 900, height: 700)], "\(previous)")
        #expect(previous.map(\.interactivelyResizing) == [false, true, true, true])
        #expect(previous.allSatisfy { $0.sizeRestrictions?.minimum == Size(width: 500, height: 400) })
        // Another connection: AccessDenied, saying who may.
        let other = try TraitClient(bus: .address(fixture.bus.address))
        defer { other.close() }
        do {
            _ = try await other.setSupportedOrientations(of: "mail", [.portrait])
            Issue.record("another connection declared mail's orientations")
        } catch let error as DBusError {
            #expect(error.name == DBusError.accessDeniedName)
            #expect(error.message == "only a connection that registered an adapter for 'mail' may declare its supported orientations; its adapters: declarer")
        }
        let denied = try await fixture.busctl(["call", "org.traitd.Layout1", mail, "org.traitd.Layout1.Window", "SetSupportedOrientations", "as", "1", "portrait"])
        #expect(denied.status != 0, "busctl is another connection: \(denied)")
    }

    /// A portrait-only app on an iPhone: the device turns, the interface stays; a request for landscape is
    /// denied (UISceneError 101), one for landscape after declaring it turns the interface.
    @Test func aPortraitOnlyAppStaysPortraitOnARotatedPhone() async throws {
        let (fixture, app, recorder) = try await start()
        defer { app.close() }
        _ = try await app.setDevice("iphone-15")
        _ = try await app.rotate(to: .portrait)
        _ = try await app.setSupportedOrientations(of: "mail", [.portrait])
        try await recorder.clear()
        let turned = try await fixture.traitctl(["set", "orientation", "landscape-left", "--wait"])
        #expect(turned.status == 0 && turned.stdout.contains("no transitions"), "\(turned)")
        var state = try await app.state()
        #expect(state.orientation == .portrait && state.window("mail")?.frame.size == Size(width: 393, height: 852))
        do {
            _ = try await app.requestGeometryUpdate(of: "mail", GeometryRequest(orientations: [.landscapeLeft]))
            Issue.record("a request for an orientation the app does not support was granted")
        } catch let error as DBusError {
            #expect(error.name == "org.traitd.Layout1.Error.GeometryRequestDenied")
            #expect(error.message.contains("none of the requested orientations is supported. Requested: landscape-left; supported: portrait (the app's)"), "\(error.message)")
        }
        _ = try await app.setSupportedOrientations(of: "mail", [.portrait, .landscapeRight])
        let ids = try await app.requestGeometryUpdate(of: "mail", GeometryRequest(orientations: [.landscapeLeft, .landscapeRight]))
        #expect(ids.count == 1)
        state = try await app.state()
        #expect(state.orientation == .landscapeRight && state.window("mail")?.frame.size == Size(width: 852, height: 393))
        // Declared portrait only while in landscape: the interface turns to it.
        let turnedBack = try await app.setSupportedOrientations(of: "mail", [.portrait])
        state = try await app.state()
        #expect(state.orientation == .portrait)
        // A request whose orientation could be granted but whose size cannot (a phone places its windows) is
        // refused whole: nothing turns, the Serial stays and nothing is sent (the turn once stayed, unsent).
        let declared = try await app.setSupportedOrientations(of: "mail", [.portrait, .landscapeLeft])
        // Their transitions (the adapter never reports) complete at the deadline first: only then is silence news.
        for id in ids + turnedBack + declared { _ = try await recorder.completion(of: id) }
        try await recorder.clear()
        let serial = try await app.state().serial
        do {
            _ = try await app.requestGeometryUpdate(of: "mail", GeometryRequest(orientations: [.landscapeLeft], size: Size(width: 500, height: 500)))
            Issue.record("a size was granted on a phone")
        } catch let error as DBusError {
            #expect(error.name == "org.traitd.Layout1.Error.GeometryRequestUnsupported", "\(error)")
        }
        state = try await app.state()
        #expect(state.orientation == .portrait && state.serial == serial, "\(state.orientation) \(state.serial) \(serial)")
        _ = try await recorder.client.state()  // every signal sent before its reply is recorded by then
        #expect(recorder.all.isEmpty, "a refusal sent \(recorder.all)")
    }

    /// On an iPad in Split View the app does not own the screen: orientation requests and sizes are
    /// unsupported (UISceneError 100); in Stage Manager a size is held within the screen, and a move alone is a
    /// geometry update with no transition (0).
    @Test func requestsWhereTheAppDoesNotOwnTheScreenAreUnsupported() async throws {
        let (fixture, app, recorder) = try await start()
        defer { withExtendedLifetime(fixture) {} }
        defer { app.close() }
        for request in [GeometryRequest(orientations: [.portrait]), GeometryRequest(size: Size(width: 500, height: 500))] {
            do {
                _ = try await app.requestGeometryUpdate(of: "mail", request)
                Issue.record("\(request) was granted in Split View")
            } catch let error as DBusError {
                #expect(error.name == "org.traitd.Layout1.Error.GeometryRequestUnsupported", "\(error)")
            }
        }
        _ = try await app.setWindowing(.stageManager)
        _ = try await app.requestGeometryUpdate(of: "mail", GeometryRequest(size: Size(width: 600, height: 500), origin: (100, 50)))
        var state = try await app.state()
        #expect(state.window("mail")?.frame == Rect(x: 100, y: 50, width: 600, height: 500))
        try await recorder.clear()
        _ = try await app.setFrame(Rect(x: 200, y: 100, width: 600, height: 500), of: "mail")
        let moved = try await recorder.wait("the move's geometry update") { $0.contains { $0.member == "DidUpdateEffectiveGeometry" } }
        let update = moved.first { $0.member == "DidUpdateEffectiveGeometry" }
        guard case .didUpdateEffectiveGeometry("mail", 0, let previous)? = update else {
            Issue.record("no update with transition 0: \(String(describing: update))")
            return
        }
        #expect(previous.frame == Rect(x: 100, y: 50, width: 600, height: 500))
        state = try await app.state()
        #expect(state.window("mail")?.frame == Rect(x: 200, y: 100, width: 600, height: 500))
    }
}
