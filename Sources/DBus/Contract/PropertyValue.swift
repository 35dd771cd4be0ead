/// A property's name and a value of it, typed by its declaration (`PropertyDeclaration.entry`): a
/// `PropertiesChanged` writes it straight from the Swift value (`WireWriter`), and `GetAll` and the like take
/// its `DBusValue`. One made from a `DBusValue` (a property of no declared type, as `RestorationState`)
/// writes that value.
public struct PropertyValue: Sendable {
    public let name: String
    private let encoder: @Sendable () -> DBusValue
    /// Writes the value in its variant.
    let writeVariant: @Sendable (inout WireWriter) -> Void

    /// The value as a `DBusValue` (made at each call).
    public var value: DBusValue { encoder() }

    public init(name: String, value: DBusValue) {
        self.name = name
        encoder = { value }
        writeVariant = { $0.write(.variant(value)) }
    }

    init(name: String, encoder: @escaping @Sendable () -> DBusValue, writeVariant: @escaping @Sendable (inout WireWriter) -> Void) {
        self.name = name
        self.encoder = encoder
        self.writeVariant = writeVariant
    }
}

extension PropertyDeclaration {
    /// The property's entry for `GetAll` and `PropertiesChanged`.
    public func entry(_ newValue: Value) -> PropertyValue {
        let parameter = value
        return PropertyValue(name: name, encoder: { parameter.encode(newValue) }) { writer in
            writer.variant(signature: parameter.signature) { parameter.writer(newValue, &$0) }
        }
    }
}

extension [PropertyValue] {
    /// Name to value, as `GetAll` replies; of a name given twice, the last value.
    public var dictionary: [String: DBusValue] {
        Dictionary(map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// In name order, of a name given twice the last value: the order and the entries of `dictionary` on
    /// the wire (`DBusValue.vardict` sorts its keys).
    var sortedByName: [PropertyValue] {
        let sorted = enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
        return sorted.indices.filter { $0 == sorted.count - 1 || sorted[$0 + 1].name != sorted[$0].name }.map { sorted[$0] }
    }
}

extension Parameter where Value == [PropertyValue] {
    /// `a{sv}`: properties and their values, as `PropertiesChanged` carries them, written from their declared
    /// types.
    public static func properties(_ name: String) -> Self {
        let fields = Parameter<[String: DBusValue]>.vardict(name)
        return Self(name, fields.signature, decode: { value in
            try fields.decode(value).sorted { $0.key < $1.key }.map { PropertyValue(name: $0.key, value: $0.value) }
        }, encode: { .vardict($0.dictionary) }, write: { properties, writer in
            writer.array(alignment: 8) { entries in
                for property in properties.sortedByName {
                    entries.structure { entry in
                        entry.string(property.name)
                        property.writeVariant(&entry)
                    }
                }
            }
        })
    }
}

/// `org.freedesktop.DBus.Properties`' signal, declared as the contract's are, so that it is written from its
/// properties' typed values.
public enum PropertiesInterface {
    public static let propertiesChanged = Declare.signal(
        "PropertiesChanged", .string("interface_name"), .properties("changed_properties"), .strings("invalidated_properties"),
        doc: "Properties of the object changed: their new values, and the names of those whose value is not sent.")
}

/// `org.freedesktop.DBus.ObjectManager`'s signals, declared as the contract's are, so that objects coming and
/// going are sent by the same route as every other signal (`Connection.emit(path:interface:_:_:)`). The
/// interfaces and their properties go as the object server orders them (its interfaces, then the standard ones).
public enum ObjectManagerInterface {
    public static let interfacesAdded = Declare.signal(
        "InterfacesAdded", .objectPath("object_path"), .value("interfaces_and_properties", "a{sa{sv}}"),
        doc: "An object appeared: its interfaces and their properties.")
    public static let interfacesRemoved = Declare.signal(
        "InterfacesRemoved", .objectPath("object_path"), .strings("interfaces"),
        doc: "An object went: the interfaces it had.")
}
