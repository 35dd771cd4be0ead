/// The shape of one D-Bus interface: its methods, signals and properties with their types.
///
/// The object server checks every incoming call against it (a call with the wrong argument types gets
/// `InvalidArgs` before any handler runs) and generates the introspection XML from it.
public struct InterfaceDescription: Sendable {
    public struct Argument: Sendable {
        public let name: String
        public let type: String
        public init(_ name: String, _ type: String) {
            self.name = name
            self.type = type
        }
    }

    public struct Method: Sendable {
        public let name: String
        public let inputs: [Argument]
        public let outputs: [Argument]
        public init(_ name: String, in inputs: [Argument] = [], out outputs: [Argument] = []) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
        }
        public var inputSignature: String { inputs.map(\.type).joined() }
        public var outputSignature: String { outputs.map(\.type).joined() }
    }

    public struct Signal: Sendable {
        public let name: String
        public let arguments: [Argument]
        public init(_ name: String, _ arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }
        public var signature: String { arguments.map(\.type).joined() }
    }

    public struct Property: Sendable {
        public let name: String
        public let type: String
        public init(_ name: String, _ type: String) {
            self.name = name
            self.type = type
        }
    }

    public let name: String
    public let methods: [Method]
    public let signals: [Signal]
    public let properties: [Property]

    public init(name: String, methods: [Method] = [], signals: [Signal] = [], properties: [Property] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    public func method(named name: String) -> Method? { methods.first { $0.name == name } }
    public func property(named name: String) -> Property? { properties.first { $0.name == name } }

    /// The `<interface>` element, indented by `indent` spaces. Properties are read-only.
    public func introspectionXML(indent: Int = 2) -> String {
        let pad = String(repeating: " ", count: indent)
        var xml = "\(pad)<interface name=\"\(name)\">\n"
        for method in methods {
            if method.inputs.isEmpty && method.outputs.isEmpty {
                xml += "\(pad)  <method name=\"\(method.name)\"/>\n"
                continue
            }
            xml += "\(pad)  <method name=\"\(method.name)\">\n"
            for arg in method.inputs {
                xml += "\(pad)    <arg name=\"\(arg.name)\" type=\"\(arg.type)\" direction=\"in\"/>\n"
            }
            for arg in method.outputs {
                xml += "\(pad)    <arg name=\"\(arg.name)\" type=\"\(arg.type)\" direction=\"out\"/>\n"
            }
            xml += "\(pad)  </method>\n"
        }
        for signal in signals {
            if signal.arguments.isEmpty {
                xml += "\(pad)  <signal name=\"\(signal.name)\"/>\n"
                continue
            }
            xml += "\(pad)  <signal name=\"\(signal.name)\">\n"
            for arg in signal.arguments {
                xml += "\(pad)    <arg name=\"\(arg.name)\" type=\"\(arg.type)\"/>\n"
            }
            xml += "\(pad)  </signal>\n"
        }
        for property in properties {
            xml += "\(pad)  <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"read\"/>\n"
        }
        xml += "\(pad)</interface>\n"
        return xml
    }
}

extension InterfaceDescription {
    /// The standard interfaces every exported object implements (their XML is part of each introspection).
    public static let introspectable = InterfaceDescription(
        name: "org.freedesktop.DBus.Introspectable",
        methods: [Method("Introspect", out: [Argument("xml_data", "s")])])

    public static let peer = InterfaceDescription(
        name: "org.freedesktop.DBus.Peer",
        methods: [Method("Ping"), Method("GetMachineId", out: [Argument("machine_uuid", "s")])])

    public static let properties = InterfaceDescription(
        name: "org.freedesktop.DBus.Properties",
        methods: [
            Method("Get", in: [Argument("interface_name", "s"), Argument("property_name", "s")],
                   out: [Argument("value", "v")]),
            Method("GetAll", in: [Argument("interface_name", "s")], out: [Argument("props", "a{sv}")]),
            Method("Set", in: [Argument("interface_name", "s"), Argument("property_name", "s"),
                               Argument("value", "v")]),
        ],
        signals: [
            Signal("PropertiesChanged", [Argument("interface_name", "s"),
                                         Argument("changed_properties", "a{sv}"),
                                         Argument("invalidated_properties", "as")])
        ])

    public static let objectManager = InterfaceDescription(
        name: "org.freedesktop.DBus.ObjectManager",
        methods: [Method("GetManagedObjects", out: [Argument("objects", "a{oa{sa{sv}}}")])],
        signals: [
            Signal("InterfacesAdded", [Argument("object_path", "o"),
                                       Argument("interfaces_and_properties", "a{sa{sv}}")]),
            Signal("InterfacesRemoved", [Argument("object_path", "o"), Argument("interfaces", "as")]),
        ])
}
