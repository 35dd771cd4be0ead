/// A read-only property of an interface, declared once with its type and its documentation.
public struct PropertyDeclaration<Value: Sendable>: Sendable {
    public let value: Parameter<Value>
    public let doc: String
    /// `Properties.Set` may change it.
    public var writable = false

    /// Its values go out in variants of its signature, written without another look (`PropertyValue`): the
    /// signature is checked here, once.
    init(value: Parameter<Value>, doc: String, writable: Bool = false) {
        self.value = value
        self.doc = doc
        self.writable = writable
        _ = value.variantSignature
    }

    public var name: String { value.name }
    public var description: InterfaceDescription.Property {
        .init(value.name, value.signature, doc: doc, writable: writable)
    }

    /// The property read from a `GetAll` dictionary (or a `PropertiesChanged`); a missing or malformed value
    /// throws, naming what came.
    public func read(from properties: [String: DBusValue]) throws -> Value {
        guard let found = properties[name] else { throw DBusError.invalidArgs("no property \(name) in the reply") }
        return try value.decode(found)
    }
}

extension Declare {
    public static func property<Value>(_ value: Parameter<Value>, doc: String) -> PropertyDeclaration<Value> {
        PropertyDeclaration(value: value, doc: doc)
    }

    /// A property that `Properties.Set` may change (`busctl set-property`, `dbus-send ... Properties.Set`).
    public static func writableProperty<Value>(_ value: Parameter<Value>, doc: String) -> PropertyDeclaration<Value> {
        PropertyDeclaration(value: value, doc: doc, writable: true)
    }
}

/// A property declaration of any value type: its description for the XML and its decoder, for an interface's
/// list of properties (and a client that decodes a `PropertiesChanged` with it).
public struct AnyPropertyDeclaration: Sendable {
    public let description: InterfaceDescription.Property
    private let decoder: @Sendable (DBusValue) throws -> any Sendable

    public init<Value>(_ property: PropertyDeclaration<Value>) {
        description = property.description
        decoder = { try property.value.decode($0) }
    }

    public var name: String { description.name }

    /// The value decoded as the declaration's `Value` (cast it back with `as?`); throws, naming the property,
    /// when `value` is not of its declared type (or its check refuses it).
    public func decode(_ value: DBusValue) throws -> any Sendable { try decoder(value) }
}

extension PropertyDeclaration {
    public var erased: AnyPropertyDeclaration { AnyPropertyDeclaration(self) }
}
