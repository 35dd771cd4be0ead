import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// TraitClient reads the daemon through the contract's declarations, strictly: a reply or a signal of another
/// shape than `Layout1` declares is refused (or shown as unrecognized) naming what came, never turned into an
/// empty value. The replies here come from an impostor that owns `org.traitd.Layout1` on a real private bus.
@Suite struct ClientContractTests {
    /// What the impostor answers: the display's properties, the windows of `GetState`, and raw replies by member.
    struct Script: Sendable {
        var display: [String: DBusValue] = Impostor.goodDisplay
        var windows: [DBusValue] = []
        var replies: [String: [DBusValue]] = [:]
    }

    /// A connection on a private bus that owns the daemon's name and answers `Layout1.Display` as scripted.
    final class Impostor: Sendable {
        let bus: PrivateBus
        let connection: Connection
        /// Held for as long as the impostor lives (an object server's exports go with it).
        let server: ObjectServer
        let script = Locked(Script())

        static let goodDisplay: [String: DBusValue] = [
            "Device": .string("ipad-9.7"), "Orientation": .string("portrait"), "ScreenSize": .doubles([768, 1024]),
            "Scale": .double(2), "Arrangement": .string("full"), "Windows": .objectPaths([]), "Serial": .uint64(7),
            "DividerPosition": .double(0), "Dragging": .boolean(false), "BackgroundApps": .strings([]),
        ]

        init() async throws {
            bus = try await PrivateBus()
            connection = try Connection(bus: .address(bus.address))
            let server = ObjectServer(connection: connection, managerPath: Layout1.rootPath)
            self.server = server
            let script = self.script
            connection.perform {
                server.export(Layout1.rootPath, [ObjectServer.Interface(Layout1.Display.interface, call: { call in
                    let now = script.withLock { $0 }
                    if let reply = now.replies[call.member] { return reply }
                    guard call.member == "GetState" else { return [] }
                    return [.uint64(7), .vardict(now.display), .array(element: "(oa{sv})", now.windows)]
                }, properties: { script.withLock { $0.display } })])
            }
            _ = try await connection.requestName(Layout1.busName)
        }

        func client() throws -> TraitClient { try TraitClient(bus: .address(bus.address)) }

        deinit { connection.close() }
    }

    /// Runs `body` and returns the message of the `DBusError` it throws (nil when it throws none).
    func refusal(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as DBusError {
            #expect(error.name == DBusError.invalidArgsName, "\(error.name)")
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func malformedRepliesThrowNamingWhatCame() async throws {
        let impostor = try await Impostor()
        let client = try impostor.client()
        defer { client.close() }
        // The well-formed state reads, typed.
        let state = try await client.state()
        #expect(state.orientation == .portrait && state.screenSize == Size(width: 768, height: 1024) && state.serial == 7)

        // A property missing, of another type, or a name the model does not have.
        impostor.script.withLock { $0.display["Orientation"] = nil }
        #expect(await refusal { _ = try await client.state() } == "GetState replied: no property Orientation in the reply")
        impostor.script.withLock { $0.display["Orientation"] = .uint64(1) }
        #expect(await refusal { _ = try await client.state() } == "GetState replied: Orientation must be 's', but it is 't'")
        impostor.script.withLock { $0.display["Orientation"] = .string("sideways") }
        let unknown = await refusal { _ = try await client.state() }
        #expect(unknown?.hasPrefix("GetState replied: unknown orientation 'sideways'; expected one of: portrait,") == true,
                "\(unknown ?? "no error")")
        impostor.script.withLock { $0.display = Impostor.goodDisplay }

        // A window whose frame has two numbers, and one whose traits lack the idiom.
        var window: [String: DBusValue] = [
            "App": .string("mail"), "Role": .string("primary"), "Frame": .doubles([0, 0]),
            "SafeAreaInsets": .doubles([20, 0, 0, 0]), "State": .string("active"), "Adapters": .strings([]),
            "Layouts": .array(element: "{sa{s(dddd)}}", []),
            "Traits": .vardict(["horizontalSizeClass": .string("regular"), "verticalSizeClass": .string("regular"),
                                "idiom": .string("pad"), "displayScale": .double(2)]),
        ]
        func setWindow() {
            let entry = DBusValue.structure([.objectPath(Layout1.windowPath("mail")), .vardict(window)])
            impostor.script.withLock { $0.windows = [entry] }
        }
        setWindow()
        #expect(await refusal { _ = try await client.state() } == "GetState replied: Frame must be '(dddd)', but it is '(dd)'")
        window["Frame"] = .doubles([0, 0, 768, 1024])
        window["Traits"] = .vardict(["horizontalSizeClass": .string("regular"), "verticalSizeClass": .string("regular"),
                                     "displayScale": .double(2)])
        setWindow()
        #expect(await refusal { _ = try await client.state() } == "GetState replied: the traits: no field idiom")

        // Replies of another signature, and a property read of the wrong type.
        impostor.script.withLock { $0.replies = ["ListDevices": [.string("ipad-9.7")], "OpenApp": []] }
        #expect(await refusal { _ = try await client.listDevices() } == "ListDevices replied 's'; expected 'as'")
        #expect(await refusal { try await client.openApp("mail", role: .primary) } == "OpenApp replied ''; expected 'oat'")
        impostor.script.withLock { $0.display["Serial"] = .string("seven") }
        #expect(await refusal { _ = try await client.property(Layout1.Display.serial) } == "Serial: Serial must be 't', but it is 's'")
    }

    @Test func aSignalOfAnotherShapeIsShownAsUnrecognized() async throws {
        let impostor = try await Impostor()
        let client = try impostor.client()
        defer { client.close() }
        let events = try await client.events()
        let context = Layout1.Window.viewWillTransitionToSize.arguments((
            3, 438, 1024,
            SizeTransitionContext(duration: 0.3, reason: .rotation, orientation: .portrait, frame: [0, 0, 438, 1024],
                                  safeAreaInsets: [20, 0, 0, 0], snapshot: false, screenSize: [768, 1024])))
        var broken = context
        broken[3] = .vardict(["duration": .double(0.3)])
        let path = Layout1.windowPath("mail")
        for arguments in [context, broken, [DBusValue.uint64(4)]] {
            try impostor.connection.emit(path: path, interface: Layout1.windowInterface, member: "ViewWillTransitionToSize", arguments)
        }
        var seen: [TraitEvent] = []
        for await event in events {
            seen.append(event)
            if seen.count == 3 { break }
        }
        #expect(seen[0].size == [438, 1024] && seen[0].context?.screenSize == [768, 1024] && seen[0].transition == 3)
        guard case .unrecognized(let missing) = seen[1], case .unrecognized(let short) = seen[2] else {
            Issue.record("expected two unrecognized signals, got \(seen)")
            return
        }
        #expect(missing.problem == "ViewWillTransitionToSize: the context: no field reason")
        #expect(short.problem == "ViewWillTransitionToSize carried 't'; expected 'tdda{sv}'")
        #expect(seen[2].description == "mail ViewWillTransitionToSize (not understood: \(short.problem))")
    }

    /// The records every transition sends (a window's `Traits`, the size context) are written from tables made
    /// once: each field once, in key order (as `DBusValue.vardict` orders a dictionary), an absent optional
    /// field left out, and the client reads back what was written.
    @Test func recordsAreWrittenInKeyOrderAndReadBack() throws {
        func keys(_ value: DBusValue) -> [String] {
            guard case .array("{sv}", let entries) = value else { return [] }
            return entries.compactMap { entry in
                guard case .dictEntry(.string(let key), .variant) = entry else { return nil }
                return key
            }
        }
        let traits = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, idiom: .pad, displayScale: 2,
                                     display: DisplayTraits([.appearance: "dark", .contentSize: "extra-large", .reduceMotion: "on"]))
        let traitsParameter = Parameter<TraitCollection>.traits("traits")
        let written = keys(traitsParameter.encode(traits))
        // The six of UITraitCollection's own, activeAppearance, Android's two window size classes, and the
        // display's window traits.
        #expect(written.count == 9 + DisplayTrait.windowTraits.count && written == written.sorted() && Set(written).count == written.count)
        #expect(try traitsParameter.decode(traitsParameter.encode(traits)) == traits)

        let contextParameter = Parameter<SizeTransitionContext>.sizeContext("context")
        var context = SizeTransitionContext(duration: 0.3, reason: .rotation, orientation: .portrait, frame: [0, 0, 438, 1024],
                                            safeAreaInsets: .zero, snapshot: false, screenSize: nil,
                                            traits: DisplayTraits([.reduceMotion: "on"]))
        let withoutScreen = keys(contextParameter.encode(context))
        context.screenSize = Size(width: 1024, height: 768)
        let withScreen = keys(contextParameter.encode(context))
        // duration, reason, orientation, frame, safeAreaInsets, snapshot, interactivelyResizing and the settings.
        #expect(withoutScreen.count == 7 + DisplayTrait.all.count && !withoutScreen.contains("screenSize"))
        #expect(withScreen == (withoutScreen + ["screenSize"]).sorted())
        #expect(try contextParameter.decode(contextParameter.encode(context)) == context)
    }

    /// Every signal `Layout1.Window` declares, encoded by its declaration as the daemon sends it, is a typed case
    /// of `TraitEvent` with the same member: a signal added to the contract without a case fails here.
    @Test func everyDeclaredWindowSignalDecodesToItsOwnCase() throws {
        typealias W = Layout1.Window
        let traits = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, idiom: .pad, displayScale: 2)
        let context = SizeTransitionContext(duration: 0.3, reason: .rotation, orientation: .portrait, frame: [0, 0, 438, 1024],
                                            safeAreaInsets: .zero, snapshot: false, screenSize: nil)
        var encoded: [String: [DBusValue]] = [
            W.willTransitionToTraitCollection.name: W.willTransitionToTraitCollection.arguments((1, traits)),
            W.viewWillTransitionToSize.name: W.viewWillTransitionToSize.arguments((1, 438, 1024, context)),
            W.traitCollectionDidChange.name: W.traitCollectionDidChange.arguments((1, traits)),
            W.viewSafeAreaInsetsDidChange.name: W.viewSafeAreaInsetsDidChange.arguments((1, [20, 0, 0, 0])),
            W.traitDidChange.name: W.traitDidChange.arguments((1, "userInterfaceStyle", .variant(.string("dark")), .variant(.string("light")))),
            W.contentSizeCategoryDidChange.name: W.contentSizeCategoryDidChange.arguments((1, .accessibilityLarge)),
            W.viewWillLayoutSubviews.name: W.viewWillLayoutSubviews.arguments(1),
            W.breakpointUnapplied.name: W.breakpointUnapplied.arguments((1, "wide")),
            W.breakpointApplied.name: W.breakpointApplied.arguments((1, "narrow")),
            W.transitionCompleted.name: W.transitionCompleted.arguments((1, ["a"], ["b"], [])),
            W.willResignActive.name: [], W.didBecomeActive.name: [], W.didEnterBackground.name: [],
            W.willEnterForeground.name: [],
        ]
        encoded[W.didUpdateEffectiveGeometry.name] = W.didUpdateEffectiveGeometry.arguments((1, EffectiveGeometry(
            frame: Rect(x: 0, y: 0, width: 694, height: 768), display: "device", orientation: .landscapeLeft,
            interactivelyResizing: false, sizeRestrictions: nil)))
        for (kind, signal) in W.keyboardNotices {
            let frame = Rect(x: 0, y: 370, width: 1024, height: 398)
            encoded[kind.rawValue] = signal.arguments((1, frame, frame, 0.25, 7, true))
        }
        #expect(Set(encoded.keys) == Set(W.interface.signals.map(\.name)), "a sample for every declared signal")
        for signal in W.interface.signals {
            let event = TraitEvent(Connection.Signal(
                sender: ":1.1", path: Layout1.windowPath("mail"), interface: Layout1.windowInterface, member: signal.name,
                arguments: try #require(encoded[signal.name])))
            if case .unrecognized(let what) = event { Issue.record("\(signal.name): \(what.problem)") }
            #expect(event.member == signal.name && event.app == "mail")
        }
    }

    /// The interfaces the running daemon serves (`Introspect`) are the declarations the client calls through.
    @Test func theDaemonServesTheDeclarationsTheClientCalls() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        for (path, interface) in [(Layout1.rootPath, Layout1.Display.interface), (Layout1.windowPath("mail"), Layout1.Window.interface)] {
            let reply = try await client.connection.call(
                destination: Layout1.busName, path: path, interface: "org.freedesktop.DBus.Introspectable",
                member: "Introspect", [])
            let xml = try #require(reply.first?.string)
            #expect(xml.contains(interface.introspectionXML()), "\(interface.name) at \(path)")
        }
    }
}
