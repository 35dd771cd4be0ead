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
        /// What it does, for people: the XML's `org.gtk.GDBus.DocString` annotation.
        public let doc: String
        public init(_ name: String, in inputs: [Argument] = [], out outputs: [Argument] = [], doc: String = "") {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            self.doc = doc
        }
        public var inputSignature: String { inputs.map(\.type).joined() }
        public var outputSignature: String { outputs.map(\.type).joined() }
    }

    public struct Signal: Sendable {
        public let name: String
        public let arguments: [Argument]
        public let doc: String
        public init(_ name: String, _ arguments: [Argument] = [], doc: String = "") {
            self.name = name
            self.arguments = arguments
            self.doc = doc
        }
        public var signature: String { arguments.map(\.type).joined() }
    }

    public struct Property: Sendable {
        public let name: String
        public let type: String
        public let doc: String
        /// `Properties.Set` may change it (the interface's `setProperty` does); read-only otherwise.
        public let writable: Bool
        public init(_ name: String, _ type: String, doc: String = "", writable: Bool = false) {
            self.name = name
            self.type = type
            self.doc = doc
            self.writable = writable
        }
    }

    public let name: String
    public let methods: [Method]
    public let signals: [Signal]
    public let properties: [Property]
    public let doc: String

    public init(
        name: String, methods: [Method] = [], signals: [Signal] = [], properties: [Property] = [], doc: String = ""
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
        self.doc = doc
    }

    public func method(named name: String) -> Method? { methods.first { $0.name == name } }
    public func property(named name: String) -> Property? { properties.first { $0.name == name } }

    /// The `<interface>` element, indented by `indent` spaces. Properties are read-only. Each member with a
    /// `doc` carries it as an `org.gtk.GDBus.DocString` annotation (gdbus-codegen turns those into the
    /// generated code's documentation).
    public func introspectionXML(indent: Int = 2) -> String {
        let pad = String(repeating: " ", count: indent)
        func docString(_ doc: String, _ pad: String) -> String {
            doc.isEmpty ? "" : "\(pad)<annotation name=\"org.gtk.GDBus.DocString\" value=\"\(Self.escape(doc))\"/>\n"
        }
        // The introspection DTD puts annotations after an element's args (and after an interface's members).
        var xml = "\(pad)<interface name=\"\(name)\">\n"
        for method in methods {
            if method.inputs.isEmpty && method.outputs.isEmpty && method.doc.isEmpty {
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
            xml += docString(method.doc, pad + "    ") + "\(pad)  </method>\n"
        }
        for signal in signals {
            if signal.arguments.isEmpty && signal.doc.isEmpty {
                xml += "\(pad)  <signal name=\"\(signal.name)\"/>\n"
                continue
            }
            xml += "\(pad)  <signal name=\"\(signal.name)\">\n"
            for arg in signal.arguments {
                xml += "\(pad)    <arg name=\"\(arg.name)\" type=\"\(arg.type)\"/>\n"
            }
            xml += docString(signal.doc, pad + "    ") + "\(pad)  </signal>\n"
        }
        for property in properties {
            let access = property.writable ? "readwrite" : "read"
            let element = "\(pad)  <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(access)\""
            if property.doc.isEmpty {
                xml += element + "/>\n"
            } else {
                xml += element + ">\n" + docString(property.doc, pad + "    ") + "\(pad)  </property>\n"
            }
        }
        xml += docString(doc, pad + "  ") + "\(pad)</interface>\n"
        return xml
    }

    /// Text as an XML attribute value.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            default: out.append(c)
            }
        }
        return out
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
