import Vocabulary
import DBus
import TraitProtocol

/// A signal from the daemon, decoded: one case for each signal of the contract, its arguments in the model's
/// types.
///
/// A window's transition comes in UIKit's order: ``willTransitionToTraitCollection(app:transition:traits:)``
/// (when the traits change), ``viewWillTransitionToSize(app:transition:size:context:)``, the display's and the
/// window's ``displayChanged(_:)`` and ``windowChanged(app:_:)``, ``traitCollectionDidChange(app:transition:previous:)``,
/// ``viewSafeAreaInsetsDidChange(app:transition:insets:)``, ``viewWillLayoutSubviews(app:transition:)`` (every
/// transition's last signal: lay out now), and ``transitionCompleted(app:transition:outcome:)``, exactly once
/// per transition. A signal whose arguments do not have the shape the contract declares is
/// ``unrecognized(_:)``, with what was wrong: it is shown, never dropped in silence.
public enum TraitEvent: Sendable, Equatable, CustomStringConvertible {
    /// The window's traits are about to change to `traits`.
    case willTransitionToTraitCollection(app: String, transition: UInt64, traits: TraitCollection)
    /// The window's size is about to change to `size` (or the device turns: a half turn keeps the size).
    case viewWillTransitionToSize(app: String, transition: UInt64, size: Size, context: SizeTransitionContext)
    /// The window's traits changed; its properties hold the new ones, `previous` are the old.
    case traitCollectionDidChange(app: String, transition: UInt64, previous: TraitCollection)
    /// One trait of the window changed (`TraitDidChange`): its key in `Traits`, new and previous value.
    case traitDidChange(app: String, transition: UInt64, trait: String, value: DBusValue, previous: DBusValue)
    /// The text size changed (`ContentSizeCategoryDidChange`, UIKit's `didChangeNotification`).
    case contentSizeCategoryDidChange(app: String, transition: UInt64, category: ContentSizeCategory)
    /// The window's safe area changed.
    case viewSafeAreaInsetsDidChange(app: String, transition: UInt64, insets: EdgeInsets)
    /// The transition's last signal (but the keyboard's `Did` notices): the window's size, traits and safe area
    /// are final; adapters lay out now.
    case viewWillLayoutSubviews(app: String, transition: UInt64)
    /// One of the app's breakpoints stopped holding (before the transition's `breakpointApplied` and
    /// ``viewWillLayoutSubviews(app:transition:)``).
    case breakpointUnapplied(app: String, transition: UInt64, breakpoint: String)
    /// One of the app's breakpoints holds now (before ``viewWillLayoutSubviews(app:transition:)``).
    case breakpointApplied(app: String, transition: UInt64, breakpoint: String)
    /// A keyboard notification (`KeyboardWillShow` and its five siblings): the keyboard's frames before and after
    /// in screen coordinates, the animation, and whether this window raised it.
    case keyboard(app: String, transition: UInt64, notice: KeyboardNotice)
    /// The window scene's geometry changed (`DidUpdateEffectiveGeometry`): the one before; the window's
    /// properties hold the new one. `transition` is 0 for a change without one (a move).
    case didUpdateEffectiveGeometry(app: String, transition: UInt64, previous: EffectiveGeometry)
    /// The transition is over: who reported, who missed its deadline, who failed to lay out.
    case transitionCompleted(app: String, transition: UInt64, outcome: TransitionOutcome)
    /// The app is about to become inactive (`WillResignActive`).
    case willResignActive(app: String)
    /// The app became active (`DidBecomeActive`).
    case didBecomeActive(app: String)
    /// The app left the screen (`DidEnterBackground`).
    case didEnterBackground(app: String)
    /// The app is coming back on screen (`WillEnterForeground`).
    case willEnterForeground(app: String)
    /// Properties of the display changed (`PropertiesChanged` on `/org/traitd/Layout1`).
    case displayChanged(PropertyChanges)
    /// Properties of an app's window changed.
    case windowChanged(app: String, PropertyChanges)
    /// A window appeared (`InterfacesAdded`), with all its properties.
    case windowOpened(WindowSnapshot)
    /// A window went (`InterfacesRemoved`).
    case windowClosed(app: String)
    /// An external display was connected (`DisplayConnected`) or disconnected (`DisplayDisconnected`).
    case displayConnected(id: String), displayDisconnected(id: String)
    /// Properties of an external display's object changed, or it appeared with them all (`InterfacesAdded`).
    case externalDisplayChanged(id: String, PropertyChanges)
    /// An external display's object went (`InterfacesRemoved`).
    case externalDisplayRemoved(id: String)
    /// A signal from the daemon that this client cannot read.
    case unrecognized(UnrecognizedSignal)

    /// The app whose window the event concerns; nil for the display.
    public var app: String? {
        switch self {
        case .willTransitionToTraitCollection(let app, _, _), .viewWillTransitionToSize(let app, _, _, _),
            .traitCollectionDidChange(let app, _, _), .viewSafeAreaInsetsDidChange(let app, _, _),
            .traitDidChange(let app, _, _, _, _), .contentSizeCategoryDidChange(let app, _, _),
            .viewWillLayoutSubviews(let app, _), .keyboard(let app, _, _), .didUpdateEffectiveGeometry(let app, _, _),
            .breakpointUnapplied(let app, _, _), .breakpointApplied(let app, _, _),
            .transitionCompleted(let app, _, _),
            .willResignActive(let app), .didBecomeActive(let app),
            .didEnterBackground(let app), .willEnterForeground(let app), .windowChanged(let app, _),
            .windowClosed(let app):
            return app
        case .windowOpened(let window): return window.app
        case .displayChanged, .displayConnected, .displayDisconnected, .externalDisplayChanged, .externalDisplayRemoved:
            return nil
        case .unrecognized(let signal): return Layout1.app(path: signal.path)
        }
    }

    /// The transition a transition signal belongs to; nil for the others.
    public var transition: UInt64? {
        switch self {
        case .willTransitionToTraitCollection(_, let id, _), .viewWillTransitionToSize(_, let id, _, _),
            .traitCollectionDidChange(_, let id, _), .viewSafeAreaInsetsDidChange(_, let id, _),
            .traitDidChange(_, let id, _, _, _), .contentSizeCategoryDidChange(_, let id, _),
            .viewWillLayoutSubviews(_, let id), .keyboard(_, let id, _), .transitionCompleted(_, let id, _),
            .breakpointUnapplied(_, let id, _), .breakpointApplied(_, let id, _):
            return id
        case .didUpdateEffectiveGeometry(_, let id, _):
            return id == 0 ? nil : id
        default: return nil
        }
    }

    /// The D-Bus member of the signal (`ViewWillTransitionToSize`, `PropertiesChanged`, ...).
    public var member: String {
        typealias W = Layout1.Window
        switch self {
        case .willTransitionToTraitCollection: return W.willTransitionToTraitCollection.name
        case .viewWillTransitionToSize: return W.viewWillTransitionToSize.name
        case .traitCollectionDidChange: return W.traitCollectionDidChange.name
        case .viewSafeAreaInsetsDidChange: return W.viewSafeAreaInsetsDidChange.name
        case .traitDidChange: return W.traitDidChange.name
        case .contentSizeCategoryDidChange: return W.contentSizeCategoryDidChange.name
        case .viewWillLayoutSubviews: return W.viewWillLayoutSubviews.name
        case .breakpointUnapplied: return W.breakpointUnapplied.name
        case .breakpointApplied: return W.breakpointApplied.name
        case .keyboard(_, _, let notice): return notice.kind.rawValue
        case .didUpdateEffectiveGeometry: return W.didUpdateEffectiveGeometry.name
        case .transitionCompleted: return W.transitionCompleted.name
        case .willResignActive: return W.willResignActive.name
        case .didBecomeActive: return W.didBecomeActive.name
        case .didEnterBackground: return W.didEnterBackground.name
        case .willEnterForeground: return W.willEnterForeground.name
        case .displayChanged, .windowChanged: return "PropertiesChanged"
        case .windowOpened: return "InterfacesAdded"
        case .windowClosed, .externalDisplayRemoved: return "InterfacesRemoved"
        case .displayConnected: return Layout1.Display.displayConnected.name
        case .displayDisconnected: return Layout1.Display.displayDisconnected.name
        case .externalDisplayChanged: return "PropertiesChanged"
        case .unrecognized(let signal): return signal.member
        }
    }

    /// One readable line, as `traitctl watch` prints it.
    public var description: String { EventText.line(self) }
}

/// How a transition ended, from `TransitionCompleted`: each adapter registered when it began is in one list.
public struct TransitionOutcome: Sendable, Equatable {
    /// Adapters that reported a layout in time.
    public var reported: [String]
    /// Adapters that did not report by the deadline (or left the bus first).
    public var missed: [String]
    /// Adapters that reported a failed layout.
    public var failed: [String]

    /// The outcome from its three lists.
    public init(reported: [String], missed: [String], failed: [String]) {
        self.reported = reported
        self.missed = missed
        self.failed = failed
    }
}

/// A signal from the daemon that does not have the shape the contract declares.
public struct UnrecognizedSignal: Sendable, Equatable {
    /// The object path it was sent from.
    public var path: String
    /// Its interface.
    public var interface: String
    /// Its name.
    public var member: String
    /// What was wrong, for a person.
    public var problem: String
}

/// The properties a `PropertiesChanged` carried, decoded by the contract's declarations when the signal
/// arrived (once: a malformed one makes the event ``TraitEvent/unrecognized(_:)``): ask for one by its
/// declaration, typed (`changes[Layout1.Display.orientation]`).
public struct PropertyChanges: Sendable, Equatable {
    /// The changed properties as they came, variants unwrapped.
    public let values: [String: DBusValue]
    /// The declared properties among them, decoded.
    private let decoded: [String: any Sendable]

    /// The names of the changed properties, sorted.
    public var names: [String] { values.keys.sorted() }

    /// The new value of `property`, or nil when it did not change.
    public subscript<Value>(_ property: PropertyDeclaration<Value>) -> Value? {
        decoded[property.name] as? Value
    }

    /// The same changes without the properties in `names` (a trace that leaves some out).
    public func removing(_ names: Set<String>) -> PropertyChanges {
        PropertyChanges(values: values.filter { !names.contains($0.key) }, decoded: decoded.filter { !names.contains($0.key) })
    }

    private init(values: [String: DBusValue], decoded: [String: any Sendable]) {
        self.values = values
        self.decoded = decoded
    }

    /// Decodes every property the contract declares for the interface (others are let through undecoded: a
    /// newer daemon may add some).
    init(_ values: [String: DBusValue], decodedBy properties: [AnyPropertyDeclaration]) throws {
        var decoded: [String: any Sendable] = [:]
        for property in properties {
            if let value = values[property.name] { decoded[property.name] = try property.decode(value) }
        }
        self.values = values
        self.decoded = decoded
    }

    /// Equal when the same values came (the decoded ones follow from them).
    public static func == (a: PropertyChanges, b: PropertyChanges) -> Bool { a.values == b.values }
}

// MARK: - Decoding

extension TraitEvent {
    /// The event a signal from the daemon carries; a signal of another shape is ``unrecognized(_:)``.
    public init(_ signal: Connection.Signal) {
        do {
            self = try Self.decode(signal)
        } catch let error as DBusError {
            self = .unrecognized(UnrecognizedSignal(
                path: signal.path, interface: signal.interface, member: signal.member, problem: error.message))
        } catch {
            self = .unrecognized(UnrecognizedSignal(
                path: signal.path, interface: signal.interface, member: signal.member, problem: "\(error)"))
        }
    }

    private static func decode(_ signal: Connection.Signal) throws -> TraitEvent {
        typealias W = Layout1.Window
        let args = signal.arguments
        switch (signal.interface, signal.member) {
        case (Layout1.windowInterface, let member):
            guard let app = Layout1.app(path: signal.path) else { throw DBusError.invalidArgs("not a window's path") }
            switch member {
            case W.willTransitionToTraitCollection.name:
                let (id, traits) = try W.willTransitionToTraitCollection.decode(args)
                return .willTransitionToTraitCollection(app: app, transition: id, traits: traits)
            case W.viewWillTransitionToSize.name:
                let (id, width, height, context) = try W.viewWillTransitionToSize.decode(args)
                return .viewWillTransitionToSize(
                    app: app, transition: id, size: Size(width: width, height: height), context: context)
            case W.traitCollectionDidChange.name:
                let (id, previous) = try W.traitCollectionDidChange.decode(args)
                return .traitCollectionDidChange(app: app, transition: id, previous: previous)
            case W.traitDidChange.name:
                let (id, trait, value, previous) = try W.traitDidChange.decode(args)
                return .traitDidChange(app: app, transition: id, trait: trait, value: value.unwrapped, previous: previous.unwrapped)
            case W.contentSizeCategoryDidChange.name:
                let (id, category) = try W.contentSizeCategoryDidChange.decode(args)
                return .contentSizeCategoryDidChange(app: app, transition: id, category: category)
            case W.viewSafeAreaInsetsDidChange.name:
                let (id, insets) = try W.viewSafeAreaInsetsDidChange.decode(args)
                return .viewSafeAreaInsetsDidChange(app: app, transition: id, insets: insets)
            case W.viewWillLayoutSubviews.name:
                return .viewWillLayoutSubviews(app: app, transition: try W.viewWillLayoutSubviews.decode(args))
            case W.breakpointUnapplied.name:
                let (id, name) = try W.breakpointUnapplied.decode(args)
                return .breakpointUnapplied(app: app, transition: id, breakpoint: name)
            case W.breakpointApplied.name:
                let (id, name) = try W.breakpointApplied.decode(args)
                return .breakpointApplied(app: app, transition: id, breakpoint: name)
            case W.transitionCompleted.name:
                let (id, reported, missed, failed) = try W.transitionCompleted.decode(args)
                return .transitionCompleted(
                    app: app, transition: id, outcome: TransitionOutcome(reported: reported, missed: missed, failed: failed))
            case W.didUpdateEffectiveGeometry.name:
                let (id, previous) = try W.didUpdateEffectiveGeometry.decode(args)
                return .didUpdateEffectiveGeometry(app: app, transition: id, previous: previous)
            case W.willResignActive.name:
                try W.willResignActive.decode(args)
                return .willResignActive(app: app)
            case W.didBecomeActive.name:
                try W.didBecomeActive.decode(args)
                return .didBecomeActive(app: app)
            case W.didEnterBackground.name:
                try W.didEnterBackground.decode(args)
                return .didEnterBackground(app: app)
            case W.willEnterForeground.name:
                try W.willEnterForeground.decode(args)
                return .willEnterForeground(app: app)
            default:
                guard let kind = KeyboardNotice.Kind(rawValue: member) else {
                    throw DBusError.invalidArgs("no such signal in the contract")
                }
                let (id, begin, end, duration, curve, local) = try W.keyboardNotices[kind]!.decode(args)
                return .keyboard(app: app, transition: id, notice: KeyboardNotice(
                    kind, begin: begin, end: end, duration: duration, curve: curve, local: local))
            }
        case (Layout1.displayInterface, Layout1.Display.displayConnected.name):
            return .displayConnected(id: try Layout1.Display.displayConnected.decode(args))
        case (Layout1.displayInterface, Layout1.Display.displayDisconnected.name):
            return .displayDisconnected(id: try Layout1.Display.displayDisconnected.decode(args))
        case (Standard.properties, "PropertiesChanged"):
            let (interface, changed, _) = try Standard.propertiesChanged.decode(args)
            if signal.path == Layout1.rootPath, interface == Layout1.displayInterface {
                return .displayChanged(try PropertyChanges(changed, decodedBy: Layout1.Display.properties))
            }
            if let id = Layout1.externalDisplay(path: signal.path), interface == Layout1.externalDisplayInterface {
                return .externalDisplayChanged(id: id, try PropertyChanges(changed, decodedBy: Layout1.ExternalDisplay.properties))
            }
            guard let app = Layout1.app(path: signal.path), interface == Layout1.windowInterface else {
                throw DBusError.invalidArgs("properties of \(interface) at \(signal.path) are not in the contract")
            }
            return .windowChanged(app: app, try PropertyChanges(changed, decodedBy: Layout1.Window.properties))
        case (Standard.objectManager, "InterfacesAdded"):
            let (path, interfaces) = try Standard.interfacesAdded.decode(args)
            if let id = Layout1.externalDisplay(path: path),
               let properties = interfaces.dictionary?[Layout1.externalDisplayInterface]?.dictionary {
                return .externalDisplayChanged(id: id, try PropertyChanges(properties, decodedBy: Layout1.ExternalDisplay.properties))
            }
            guard Layout1.app(path: path) != nil, let properties = interfaces.dictionary?[Layout1.windowInterface]?.dictionary else {
                throw DBusError.invalidArgs("\(path) is not a window with \(Layout1.windowInterface)")
            }
            return .windowOpened(try WindowSnapshot(path: path, properties: properties))
        case (Standard.objectManager, "InterfacesRemoved"):
            let (path, _) = try Standard.interfacesRemoved.decode(args)
            if let id = Layout1.externalDisplay(path: path) { return .externalDisplayRemoved(id: id) }
            guard let app = Layout1.app(path: path) else { throw DBusError.invalidArgs("\(path) is not a window") }
            return .windowClosed(app: app)
        default:
            throw DBusError.invalidArgs("no such signal in the contract")
        }
    }
}

/// The standard interfaces' signals the daemon sends, declared as the D-Bus specification has them.
private enum Standard {
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let propertiesChanged = Declare.signal(
        "PropertiesChanged", .string("interface_name"), .vardict("changed_properties"),
        .strings("invalidated_properties"), doc: "")
    static let interfacesAdded = Declare.signal(
        "InterfacesAdded", .objectPath("object_path"), .value("interfaces_and_properties", "a{sa{sv}}"), doc: "")
    static let interfacesRemoved = Declare.signal(
        "InterfacesRemoved", .objectPath("object_path"), .strings("interfaces"), doc: "")
}
