import DBus
import Testing
import TraitConfig
import TraitModel
import TraitProtocol
@testable import TraitService
import Vocabulary

/// Every signal traitd sends, written from its typed arguments by their parameters (what `Connection.emit`
/// sends) against the same signal written from the `DBusValue`s its declaration encodes: the same bytes, so a
/// client decodes the same values whichever way a signal went out.
@Suite struct SignalBytesTests {
    static let path = Layout1.windowPath("mail")
    static let interface = Layout1.windowInterface

    /// Both ways' bytes of `signal` with `arguments`, and whether the typed way wrote it at all.
    static func expectSameBytes<Arguments: Sendable>(
        _ signal: SignalDeclaration<Arguments>, _ arguments: Arguments, path: String = path, interface: String = interface,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let typed = Marshalling.directBytes(path: path, interface: interface, signal, arguments)
        let values = Marshalling.directBytes(path: path, interface: interface, member: signal.name, signal.arguments(arguments))
        #expect(typed != nil, "\(signal.name) written from its typed arguments", sourceLocation: sourceLocation)
        #expect(typed == values, "\(signal.name): the same bytes both ways", sourceLocation: sourceLocation)
    }

    static let dark = DisplayTraits([.appearance: "dark", .contentSize: "extra-large", .reduceMotion: "on", .legibility: "bold"])
    static let traits = [
        TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, idiom: .pad, displayScale: 2),
        TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .compact, idiom: .phone, displayScale: 3,
                        userInterfaceLevel: .elevated, displayGamut: .p3, activeAppearance: .inactive, display: dark),
    ]

    @Test func aWindowsTraitsAndTheirChanges() {
        let window = Layout1.Window.self
        for traits in Self.traits {
            Self.expectSameBytes(window.willTransitionToTraitCollection, (7, traits))
            Self.expectSameBytes(window.traitCollectionDidChange, (UInt64.max, traits))
        }
        let fields: [TraitCollection.Field] = [.horizontalSizeClass, .verticalSizeClass, .idiom, .displayScale, .userInterfaceLevel,
                                              .displayGamut, .activeAppearance] + DisplayTrait.windowTraits.map { .display($0) }
        for field in fields {
            let (key, value) = field.entry(in: Self.traits[1])
            Self.expectSameBytes(window.traitDidChange, (8, key, .variant(value), .variant(field.entry(in: Self.traits[0]).value)))
        }
        Self.expectSameBytes(window.contentSizeCategoryDidChange, (9, .accessibilityExtraLarge))
    }

    @Test func aWindowsSizeAndGeometry() {
        let window = Layout1.Window.self
        let frame = Rect(x: 0, y: 24.5, width: 438, height: -0.0)
        let contexts = [
            SizeTransitionContext(duration: 0.3, reason: .rotation, orientation: .portrait, frame: frame,
                                  safeAreaInsets: EdgeInsets(top: 24, left: 0, bottom: 20, right: 0), snapshot: false, screenSize: nil),
            SizeTransitionContext(duration: 0, reason: .windowing, orientation: .landscapeLeft, frame: frame,
                                  safeAreaInsets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0), snapshot: true,
                                  screenSize: Size(width: 1366, height: 1024), traits: Self.dark, interactivelyResizing: true),
        ]
        for context in contexts { Self.expectSameBytes(window.viewWillTransitionToSize, (3, 438, .nan, context)) }
        for restrictions in [nil, SizeRestrictions(minimum: Size(width: 320, height: 320), maximum: Size(width: 1366, height: 1024))] {
            let geometry = EffectiveGeometry(frame: frame, display: "builtin", orientation: .portraitUpsideDown,
                                             interactivelyResizing: restrictions == nil, sizeRestrictions: restrictions)
            Self.expectSameBytes(window.didUpdateEffectiveGeometry, (0, geometry))
        }
        Self.expectSameBytes(window.viewSafeAreaInsetsDidChange, (4, EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
        Self.expectSameBytes(window.viewWillLayoutSubviews, 5)
        for (_, notice) in window.keyboardNotices {
            Self.expectSameBytes(notice, (6, frame, Rect(x: 0, y: 700, width: 1024, height: 324), 0.25, 7, true))
        }
        Self.expectSameBytes(window.willResignActive, ())
    }

    /// Lists past the writer's first buffer (it grows), empty ones, and names past ASCII.
    @Test func aTransitionsCompletion() {
        let many = (0..<200).map { "adapter-\($0)-käse" }
        Self.expectSameBytes(Layout1.Window.transitionCompleted, (1, many, [], ["ü"]))
        Self.expectSameBytes(Layout1.Window.transitionCompleted, (2, [], [], []))
    }

    @Test func theDisplaysAndThePortalsSignals() {
        Self.expectSameBytes(Layout1.Display.displayConnected, "external-1", path: Layout1.rootPath, interface: Layout1.displayInterface)
        Self.expectSameBytes(PortalSettings.settingChanged, ("org.freedesktop.appearance", "color-scheme", .variant(.uint32(1))),
                             path: PortalSettings.path, interface: PortalSettings.interfaceName)
    }

    /// `PropertiesChanged` of every property of the display and of a window, the layouts' three among them,
    /// and a property of no declared type: written from the declared types, it is what the values of the
    /// dictionary made before stop 58 were; of a name given twice, the last value.
    @Test func propertiesChangedOfEveryProperty() throws {
        let simulation = try DaemonConfig.embedded().makeSimulation(catalog: try ProfileLoader.catalog())
        let window = Layout1.Window.self
        let frames = ["root": Rect(x: 0, y: 0, width: 10, height: 20), "sidebar": Rect(x: 1, y: 2, width: 3, height: 4)]
        let lists: [(path: String, interface: String, [PropertyValue])] = [
            (Layout1.rootPath, Layout1.displayInterface, Encoding.displayProperties(simulation.display)),
            (Self.path, Self.interface, Encoding.windowProperties(app: "mail", simulation.windows["mail"]!)),
            (Self.path, Self.interface, [
                window.layouts.entry(["a": frames, "b": [:]]), window.layoutExtras.entry(["a": ["k": .string("v")]]),
                window.layoutProblems.entry([LayoutProblem(adapter: "a", element: "root", rule: .outsideWindow, message: "m")]),
                PropertyValue(name: "RestorationState", value: .vardict(["n": .uint32(1)])),
                window.adapters.entry(["x"]), window.adapters.entry(["y", "z"]),
            ]),
            (Self.path, Self.interface, []),
        ]
        for (path, interface, properties) in lists {
            let typed = Marshalling.directBytes(path: path, interface: "org.freedesktop.DBus.Properties",
                                                PropertiesInterface.propertiesChanged, (interface, properties, []))
            let values = Marshalling.directBytes(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                                 [.string(interface), .vardict(properties.dictionary), .strings([])])
            #expect(typed != nil && typed == values, "\(properties.map(\.name))")
        }
        #expect([window.adapters.entry(["x"]), window.adapters.entry(["y"])].dictionary["Adapters"] == .strings(["y"]))
    }

    /// A value that is not of the type its parameter declares is not written the typed way (the connection
    /// then sends the values' own bytes, as it always did); neither is a string with a NUL in it.
    @Test func whatTheDeclarationDoesNotSayIsNotWrittenTheTypedWay() {
        let notAVariant = Marshalling.directBytes(path: Self.path, interface: Self.interface, Layout1.Window.traitDidChange,
                                                  (8, "userInterfaceStyle", .string("dark"), .variant(.string("light"))))
        #expect(notAVariant == nil)
        let nul = Marshalling.directBytes(path: Self.path, interface: Self.interface, Layout1.Window.transitionCompleted,
                                          (1, ["a\u{0}b"], [], []))
        #expect(nul == nil)
    }
}
