import Glibc

/// Exports objects on a connection: routes method calls to their interfaces after checking argument types,
/// and implements `Introspectable`, `Properties` and (at its root) `ObjectManager` for every object.
/// (`Peer` is answered by libdbus itself.)
///
/// Use it from the connection's thread only: the handlers it calls run there.
// @unchecked: its tables are touched only on the connection's thread (its message handler runs there, and
// `export`, `unexport` and `propertiesChanged` assert that they are called there); it is Sendable only so that
// the handler it installs can hold it weakly.
public final class ObjectServer: @unchecked Sendable {
    /// A method call as a handler sees it.
    public struct MethodCall: Sendable {
        public let sender: String
        public let path: String
        public let interface: String
        public let member: String
        public let arguments: [DBusValue]
        fileprivate let control: ReplyControl

        /// Takes the reply out of the server's hands: it sends none when the handler returns, and the
        /// handler (or whoever it passes the `DeferredReply` to) answers later, exactly once. A handler that
        /// throws after deferring still gets its error sent at once.
        public func deferReply() -> DeferredReply {
            control.deferred.withLock { deferred in
                if let deferred { return deferred }
                let made = DeferredReply(message: control.message, connection: control.connection)
                deferred = made
                return made
            }
        }
    }

    /// A method call's reply, sent later from any thread (see `MethodCall.deferReply()`).
    public final class DeferredReply: Sendable {
        /// Read only by the reply job, on the connection's thread (Message is not Sendable).
        private nonisolated(unsafe) let message: Message
        private let connection: Connection
        private let sent = Locked(false)

        fileprivate init(message: Message, connection: Connection) {
            self.message = message
            self.connection = connection
        }

        /// Sends the reply (the first call wins; later ones do nothing): at once on the connection's thread,
        /// else from a job there.
        public func send(_ result: Result<[DBusValue], DBusError>) {
            guard sent.withLock({ sent in
                defer { sent = true }
                return !sent
            }) else { return }
            if connection.isOnConnectionThread {
                ObjectServer.reply(to: message, result, on: connection)
            } else {
                connection.perform { [self] in ObjectServer.reply(to: message, result, on: connection) }
            }
        }
    }

    fileprivate final class ReplyControl: Sendable {
        /// Read on the connection's thread only, where the call is handled (Message is not Sendable).
        nonisolated(unsafe) let message: Message
        let connection: Connection
        let deferred = Locked<DeferredReply?>(nil)
        init(message: Message, connection: Connection) {
            self.message = message
            self.connection = connection
        }
    }

    /// A handler bound to one method (see `MethodDeclaration.bind`).
    public struct Method {
        public let name: String
        /// Handles a call whose arguments already match the method's signature; returns the output values.
        public let handle: (MethodCall) throws -> [DBusValue]

        public init(_ name: String, _ handle: @escaping (MethodCall) throws -> [DBusValue]) {
            self.name = name
            self.handle = handle
        }
    }

    /// One interface implemented by an exported object.
    public struct Interface {
        public let description: InterfaceDescription
        /// Handles a call whose arguments already match the method's signature; returns the output values.
        public let call: (MethodCall) throws -> [DBusValue]
        /// The current values of every property.
        public let properties: () -> [String: DBusValue]
        /// The current value of one property, for an interface that can read one without encoding them all
        /// (`Properties.Get` is most of what clients call); nil: taken from `properties`.
        public let property: ((String) -> DBusValue?)?
        /// Changes a writable property (name, value of its declared type, the `Set` call); nil when none is.
        public let setProperty: ((String, DBusValue, MethodCall) throws -> Void)?

        public init(
            _ description: InterfaceDescription, call: @escaping (MethodCall) throws -> [DBusValue],
            properties: @escaping () -> [String: DBusValue], property: ((String) -> DBusValue?)? = nil,
            setProperty: ((String, DBusValue, MethodCall) throws -> Void)? = nil
        ) {
            self.description = description
            self.call = call
            self.properties = properties
            self.property = property
            self.setProperty = setProperty
        }

        /// One property's current value (nil when the interface has no such property).
        func value(of name: String) -> DBusValue? { property.map { $0(name) } ?? properties()[name] }

        /// An interface whose methods each have their own handler: exactly one for every method of
        /// `description` (anything else is a programming error, caught when the object is built).
        public init(
            _ description: InterfaceDescription, methods: [Method], properties: @escaping () -> [String: DBusValue],
            property: ((String) -> DBusValue?)? = nil, setProperty: ((String, DBusValue, MethodCall) throws -> Void)? = nil
        ) {
            let handlers = Dictionary(methods.map { ($0.name, $0.handle) }, uniquingKeysWith: { first, _ in
                preconditionFailure("\(description.name): two handlers for one method")
            })
            let declared = Set(description.methods.map(\.name))
            precondition(
                Set(handlers.keys) == declared,
                "\(description.name): handlers for \(handlers.keys.sorted()), methods \(declared.sorted())")
            self.init(description, call: { call in try handlers[call.member]!(call) }, properties: properties,
                      property: property, setProperty: setProperty)
        }
    }

    public let connection: Connection
    /// The path that implements `ObjectManager` for the objects under it.
    public let managerPath: String
    private var objects: [String: [Interface]] = [:]
    /// Told about a signal that could not be sent (a value past `WireLimits`, a closed connection); the
    /// server goes on either way. The daemon logs it.
    public var sendFailed: (_ what: String, _ error: any Error) -> Void = { _, _ in }
    /// The largest call body the exported objects take, checked before any value is read (nil: no check).
    public var incomingLimit: IncomingLimit?

    public init(connection: Connection, managerPath: String) {
        self.connection = connection
        self.managerPath = managerPath
        connection.addHandler { [weak self] message in self?.handle(message) ?? false }
    }

    public var exportedPaths: [String] { objects.keys.sorted() }

    /// Exports an object; objects under the manager path announce themselves with `InterfacesAdded`, with
    /// each interface's properties as `announcing` gives them (interface name -> properties) or, for an
    /// interface it leaves out, as the interface reads them now.
    public func export(_ path: String, _ interfaces: [Interface], announcing: [String: [String: DBusValue]] = [:]) {
        assert(connection.isOnConnectionThread, "ObjectServer.export called off the connection's thread")
        precondition(Validation.isValidObjectPath(path), "invalid object path \(path)")
        objects[path] = interfaces
        if path != managerPath, isManaged(path) {
            emit("InterfacesAdded for \(path)", ObjectManagerInterface.interfacesAdded,
                 (path, interfacesAndProperties(interfaces, announcing)))
        }
    }

    /// Removes an object; objects under the manager path announce it with `InterfacesRemoved`.
    public func unexport(_ path: String) {
        assert(connection.isOnConnectionThread, "ObjectServer.unexport called off the connection's thread")
        guard let interfaces = objects.removeValue(forKey: path) else { return }
        if path != managerPath, isManaged(path) {
            let names = interfaces.map(\.description.name) + Self.standardInterfaces.map(\.name)
            emit("InterfacesRemoved for \(path)", ObjectManagerInterface.interfacesRemoved, (path, names))
        }
    }

    /// Emits `PropertiesChanged` for the given properties of one interface.
    public func propertiesChanged(path: String, interface: String, _ changed: [String: DBusValue]) {
        propertiesChanged(path: path, interface: interface, changed.map(PropertyValue.init))
    }

    /// The same, each value written from its declared type (`PropertyDeclaration.entry`); of a name given
    /// twice, the last value goes.
    public func propertiesChanged(path: String, interface: String, _ changed: [PropertyValue]) {
        assert(connection.isOnConnectionThread, "ObjectServer.propertiesChanged called off the connection's thread")
        guard !changed.isEmpty else { return }
        do {
            try connection.emit(path: path, interface: InterfaceDescription.properties.name,
                                PropertiesInterface.propertiesChanged, (interface, changed, []))
        } catch {
            sendFailed("PropertiesChanged of \(path)", error)
        }
    }

    /// One of the object manager's signals, on the manager's path.
    private func emit<Arguments: Sendable>(_ what: String, _ signal: SignalDeclaration<Arguments>, _ arguments: Arguments) {
        do {
            try connection.emit(path: managerPath, interface: InterfaceDescription.objectManager.name, signal, arguments)
        } catch {
            sendFailed(what, error)
        }
    }

    /// The introspection XML of `path`: its interfaces, the standard ones, and its child nodes.
    public func introspect(_ path: String) -> String {
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>

            """
        if let interfaces = objects[path] {
            var all = Self.standardInterfaces
            if path == managerPath { all.append(.objectManager) }
            for description in all + interfaces.map(\.description) { xml += description.introspectionXML() }
        }
        for child in children(of: path) { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }

    // MARK: Internals

    static let standardInterfaces: [InterfaceDescription] = [.introspectable, .peer, .properties]

    private func isManaged(_ path: String) -> Bool {
        managerPath == "/" || path == managerPath || path.hasPrefix(managerPath + "/")
    }

    private func children(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var names: Set<String> = []
        for other in objects.keys where other.hasPrefix(prefix) && other != path {
            if let first = other.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    private func interfacesAndProperties(_ interfaces: [Interface], _ announcing: [String: [String: DBusValue]] = [:]) -> DBusValue {
        var entries = interfaces.map { interface -> DBusValue in
            let name = interface.description.name
            return .dictEntry(.string(name), .vardict(announcing[name] ?? interface.properties()))
        }
        for standard in Self.standardInterfaces {
            entries.append(.dictEntry(.string(standard.name), .vardict([:])))
        }
        return .array(element: "{sa{sv}}", entries)
    }

    private func handle(_ message: Message) -> Bool {
        guard message.kind == .methodCall, let path = message.path, let member = message.member else { return false }
        let interfaceName = message.interface
        let exported = objects[path]
        let isIntermediate = exported == nil && !children(of: path).isEmpty
        guard exported != nil || isIntermediate else {
            // Leave Peer to libdbus; everything else on an unknown path is an unknown object.
            if interfaceName == InterfaceDescription.peer.name { return false }
            Self.reply(to: message, .failure(DBusError(DBusError.unknownObjectName, "no object at \(path)")), on: connection)
            return true
        }
        if interfaceName == InterfaceDescription.peer.name { return false }

        let control = ReplyControl(message: message, connection: connection)
        let result: Result<[DBusValue], DBusError>
        // After a large body (or one refused unread), free memory goes back to the system, so that it does not
        // stay in the resident size for good.
        var large = false
        defer { if large { releaseFreeMemory() } }
        do {
            if let incomingLimit {
                do {
                    large = try incomingLimit.admit(message) >= IncomingLimit.releaseAfterBytes
                } catch {
                    large = true
                    throw error
                }
            }
            result = .success(try route(message, control, path: path, interface: interfaceName, member: member,
                                        interfaces: exported ?? []))
        } catch let error as DBusError {
            result = .failure(error)
        } catch {
            result = .failure(.failed(String(describing: error)))
        }
        if let deferred = control.deferred.withLock({ $0 }) {
            if case .failure = result { deferred.send(result) }
        } else {
            Self.reply(to: message, result, on: connection)
        }
        return true
    }

    private func route(
        _ message: Message, _ control: ReplyControl, path: String, interface: String?, member: String, interfaces: [Interface]
    ) throws -> [DBusValue] {
        let signature = message.signature
        let call = { (method: InterfaceDescription.Method, interface: String) in
            MethodCall(sender: message.sender ?? "", path: path, interface: interface, member: method.name,
                       arguments: message.arguments(), control: control)
        }
        // Standard interfaces first.
        var standard = Self.standardInterfaces
        if path == managerPath { standard.append(.objectManager) }
        for description in standard where interface == nil || interface == description.name {
            guard let method = description.method(named: member) else { continue }
            try checkSignature(signature, method, description.name)
            return try handleStandard(call(method, description.name), interfaces: interfaces)
        }
        for implementation in interfaces where interface == nil || interface == implementation.description.name {
            guard let method = implementation.description.method(named: member) else { continue }
            try checkSignature(signature, method, implementation.description.name)
            return try implementation.call(call(method, implementation.description.name))
        }
        let known = (standard.map(\.name) + interfaces.map(\.description.name))
        if let interface, !known.contains(interface) {
            throw DBusError(DBusError.unknownInterfaceName,
                            "\(path) has no interface \(interface); it has \(known.joined(separator: ", "))")
        }
        throw DBusError(DBusError.unknownMethodName,
                        "\(interface ?? "no interface") has no method \(member) on \(path)")
    }

    private func checkSignature(_ signature: String, _ method: InterfaceDescription.Method, _ interface: String) throws {
        guard signature != method.inputSignature else { return }
        let expected = method.inputs.map { "\($0.type) \($0.name)" }.joined(separator: ", ")
        throw DBusError.invalidArgs(
            "\(interface).\(method.name) takes (\(expected)), but the call carried '\(signature)'")
    }

    private func handleStandard(_ call: MethodCall, interfaces: [Interface]) throws -> [DBusValue] {
        switch (call.interface, call.member) {
        case (InterfaceDescription.introspectable.name, "Introspect"):
            return [.string(introspect(call.path))]
        case (InterfaceDescription.properties.name, "Get"):
            let implementation = try findInterface(call.arguments[0].string ?? "", interfaces, path: call.path)
            let name = call.arguments[1].string ?? ""
            guard implementation.description.property(named: name) != nil, let value = implementation.value(of: name)
            else {
                throw DBusError(DBusError.unknownPropertyName,
                                "\(implementation.description.name) has no property '\(name.printable)'")
            }
            return [.variant(value)]
        case (InterfaceDescription.properties.name, "GetAll"):
            let name = call.arguments[0].string ?? ""
            // The standard interfaces have no properties; an empty name asks for every interface's properties.
            if Self.standardInterfaces.contains(where: { $0.name == name }) || name == InterfaceDescription.objectManager.name {
                return [.vardict([:])]
            }
            if name.isEmpty {
                return [.vardict(interfaces.reduce(into: [:]) { all, i in all.merge(i.properties()) { a, _ in a } })]
            }
            return [.vardict(try findInterface(name, interfaces, path: call.path).properties())]
        case (InterfaceDescription.properties.name, "Set"):
            let implementation = try findInterface(call.arguments[0].string ?? "", interfaces, path: call.path)
            let name = call.arguments[1].string ?? ""
            guard let property = implementation.description.property(named: name) else {
                throw DBusError(DBusError.unknownPropertyName,
                                "\(implementation.description.name) has no property '\(name.printable)'")
            }
            if property.writable, let set = implementation.setProperty {
                let value = call.arguments[2].unwrapped
                guard value.signature == property.type else {
                    throw DBusError.invalidArgs("\(name) is '\(property.type)', but the value given is '\(value.signature)'")
                }
                try set(name, value, call)
                return []
            }
            throw DBusError(DBusError.propertyReadOnly,
                            "\(implementation.description.name).\(name) is read-only; use the interface's methods to change it")
        case (InterfaceDescription.objectManager.name, "GetManagedObjects"):
            let entries = objects.keys.sorted().filter { $0 != managerPath && isManaged($0) }.map { path in
                DBusValue.dictEntry(.objectPath(path), interfacesAndProperties(objects[path]!))
            }
            return [.array(element: "{oa{sa{sv}}}", entries)]
        default:
            throw DBusError(DBusError.unknownMethodName, "\(call.interface).\(call.member) is not implemented")
        }
    }

    private func findInterface(_ name: String, _ interfaces: [Interface], path: String) throws -> Interface {
        guard let found = interfaces.first(where: { $0.description.name == name }) else {
            let names = interfaces.map(\.description.name).joined(separator: ", ")
            throw DBusError(DBusError.unknownInterfaceName,
                            "\(path) has no interface '\(name.printable)' with properties; it has \(names.isEmpty ? "none" : names)")
        }
        return found
    }

    /// Sends the reply to `message`; a reply that cannot be encoded (past `WireLimits`, say) goes out as an
    /// error instead, so that a caller always gets an answer and the bus never sees a bad message.
    fileprivate static func reply(to message: Message, _ result: Result<[DBusValue], DBusError>, on connection: Connection) {
        guard !message.noReplyExpected else { return }
        switch result {
        case .success(let values):
            do {
                try connection.sendReturn(to: message, values)
            } catch {
                // A value that cannot be sent must not abort the process, go out half-built or reach the bus.
                let failure = (error as? DBusError) ?? .failed("\(error)")
                try? connection.send(message.makeError(DBusError(failure.name, "the reply cannot be sent: \(failure.message)")))
            }
        case .failure(let error):
            try? connection.send(message.makeError(error))
        }
    }
}

extension DBusError {
    static let propertyReadOnly = DBusError.propertyReadOnlyName
}
