/// One argument of a method or signal, or a property's value: its name, its D-Bus type, and how a Swift value
/// of type `Value` goes onto the wire and back.
///
/// A parameter also writes its value's bytes straight into a message (`WireWriter`), the same bytes as its
/// `DBusValue` would be: the basic types, `map`s of them, structs of doubles and records do it without making
/// the value; any other writes what `encode` makes, checked to be of `signature`. The bytes are what a signal
/// sends (`SignalDeclaration`); the `DBusValue` is for everything else.
///
/// Decoding is strict and happens in one step: a value of another type, or one the `check` refuses, throws
/// `InvalidArgs` with a message naming the argument and what it got. The object server uses it on incoming
/// calls (after the signature check, so a decoder mostly checks *values*); a client uses it on replies and
/// signals, where the type itself may be wrong.
public struct Parameter<Value: Sendable>: Sendable {
    public let name: String
    /// The D-Bus signature of the value (`s`, `a{sv}`, `(dddd)`).
    public let signature: String
    @usableFromInline let decoder: @Sendable (DBusValue) throws -> Value
    @usableFromInline let encoder: @Sendable (Value) -> DBusValue
    /// Writes the value where the writer stands, as `encoder`'s value would be written.
    @usableFromInline let writer: @Sendable (Value, inout WireWriter) -> Void

    public init(
        _ name: String, _ signature: String, decode: @escaping @Sendable (DBusValue) throws -> Value,
        encode: @escaping @Sendable (Value) -> DBusValue
    ) {
        self.init(name, signature, decode: decode, encode: encode, write: Self.writing(encode, as: signature))
    }

    /// The writer of a parameter with none of its own: the `DBusValue` `encode` makes, which must be of
    /// `signature`.
    private static func writing(
        _ encode: @escaping @Sendable (Value) -> DBusValue, as signature: String
    ) -> @Sendable (Value, inout WireWriter) -> Void {
        { value, writer in writer.write(encode(value), declaredAs: signature) }
    }

    /// A parameter whose bytes `write` writes itself: the same bytes as `encode`'s value.
    @usableFromInline
    init(
        _ name: String, _ signature: String, decode: @escaping @Sendable (DBusValue) throws -> Value,
        encode: @escaping @Sendable (Value) -> DBusValue, write: @escaping @Sendable (Value, inout WireWriter) -> Void
    ) {
        self.name = name
        self.signature = signature
        decoder = decode
        encoder = encode
        writer = write
    }

    public func decode(_ value: DBusValue) throws -> Value { try decoder(value.unwrappedIfNotVariant(signature)) }
    public func encode(_ value: Value) -> DBusValue { encoder(value) }

    public var argument: InterfaceDescription.Argument { .init(name, signature) }

    /// The same wire type, with a further check (or conversion) of the decoded value: `string("app")` becomes
    /// an app name that must follow the naming rule.
    @inlinable  // its closures are specialised where a parameter is declared: they run at every signal
    public func map<Other: Sendable>(
        decode: @escaping @Sendable (Value) throws -> Other, encode: @escaping @Sendable (Other) -> Value
    ) -> Parameter<Other> {
        let decoder = self.decoder
        let encoder = self.encoder
        let writer = self.writer
        return Parameter<Other>(name, signature, decode: { try decode(decoder($0)) }, encode: { encoder(encode($0)) },
                                write: { writer(encode($0), &$1) })
    }
}

// MARK: - The basic types

extension Parameter {
    /// A parameter whose value is read by `extract`; a value it cannot read is refused as of the wrong type.
    public init(
        _ name: String, _ signature: String, extract: @escaping @Sendable (DBusValue) -> Value?,
        encode: @escaping @Sendable (Value) -> DBusValue
    ) {
        self.init(name, signature, extract: extract, encode: encode, write: Self.writing(encode, as: signature))
    }

    init(
        _ name: String, _ signature: String, extract: @escaping @Sendable (DBusValue) -> Value?,
        encode: @escaping @Sendable (Value) -> DBusValue, write: @escaping @Sendable (Value, inout WireWriter) -> Void
    ) {
        self.init(name, signature, decode: { value in
            guard let read = extract(value) else {
                throw DBusError.invalidArgs("\(name) must be '\(signature)', but it is '\(value.signature)'")
            }
            return read
        }, encode: encode, write: write)
    }
}

extension Parameter where Value == String {
    public static func string(_ name: String) -> Self {
        Self(name, "s", extract: { if case .string(let s) = $0 { s } else { nil } }, encode: { .string($0) },
             write: { $1.string($0) })
    }

    public static func objectPath(_ name: String) -> Self {
        Self(name, "o", extract: { if case .objectPath(let s) = $0 { s } else { nil } }, encode: { .objectPath($0) },
             write: { $1.objectPath($0) })
    }
}

extension Parameter where Value == Double {
    public static func double(_ name: String) -> Self {
        Self(name, "d", extract: { if case .double(let d) = $0 { d } else { nil } }, encode: { .double($0) },
             write: { $1.double($0) })
    }
}

extension Parameter where Value == UInt64 {
    public static func uint64(_ name: String) -> Self {
        Self(name, "t", extract: { if case .uint64(let n) = $0 { n } else { nil } }, encode: { .uint64($0) },
             write: { $1.put($0) })
    }
}

extension Parameter where Value == UInt32 {
    public static func uint32(_ name: String) -> Self {
        Self(name, "u", extract: { if case .uint32(let n) = $0 { n } else { nil } }, encode: { .uint32($0) },
             write: { $1.put($0) })
    }
}

extension Parameter where Value == Int32 {
    public static func int32(_ name: String) -> Self {
        Self(name, "i", extract: { if case .int32(let n) = $0 { n } else { nil } }, encode: { .int32($0) },
             write: { $1.put($0) })
    }
}

extension Parameter where Value == Bool {
    public static func boolean(_ name: String) -> Self {
        Self(name, "b", extract: { if case .boolean(let b) = $0 { b } else { nil } }, encode: { .boolean($0) },
             write: { $1.boolean($0) })
    }
}

extension Parameter where Value == [String] {
    public static func strings(_ name: String) -> Self {
        Self(name, "as", extract: { $0.hasSignature("as") ? $0.strings : nil }, encode: { .strings($0) },
             write: { list, writer in writer.array(alignment: 4) { for s in list { $0.string(s) } } })
    }

    public static func objectPaths(_ name: String) -> Self {
        Self(name, "ao", extract: { $0.hasSignature("ao") ? $0.strings : nil }, encode: { .objectPaths($0) },
             write: { list, writer in writer.array(alignment: 4) { for s in list { $0.objectPath(s) } } })
    }
}

extension Parameter where Value == [Double] {
    /// `(dd...)`: a struct of `count` doubles (a frame, insets, a size).
    public static func doubles(_ name: String, count: Int) -> Self {
        let signature = "(" + String(repeating: "d", count: count) + ")"
        return Self(name, signature, extract: { value in value.hasSignature(signature) ? value.doubles : nil },
                    encode: { .doubles($0) },
                    write: { values, writer in
                        // Another count is not of the signature: the fallback's check says so.
                        guard values.count == count else { return writer.write(.doubles(values), declaredAs: signature) }
                        writer.structure { for value in values { $0.double(value) } }
                    })
    }
}

extension Parameter where Value == [String: DBusValue] {
    /// `a{sv}`, its values taken out of their variants; a key that comes twice is refused, naming it.
    public static func vardict(_ name: String) -> Self {
        Self(name, "a{sv}", decode: { value in
            guard value.hasSignature("a{sv}"), let read = try value.uniqueDictionary(name) else {
                throw DBusError.invalidArgs("\(name) must be 'a{sv}', but it is '\(value.signature)'")
            }
            return read
        }, encode: { .vardict($0) })
    }
}

extension Parameter where Value == DBusValue {
    /// Any value of `signature`, handed over as it is (for values checked further by their handler).
    public static func value(_ name: String, _ signature: String) -> Self {
        Self(name, signature, extract: { $0.hasSignature(signature) ? $0 : nil }, encode: { $0 })
    }
}

extension DBusValue {
    /// A property's value arrives in a variant; an argument whose own type is `v` keeps it.
    fileprivate func unwrappedIfNotVariant(_ signature: String) -> DBusValue { signature == "v" ? self : unwrapped }
}

extension Parameter {
    /// `a{s...}`: string keys (sorted on the wire), each value read strictly by `element`; a key that comes
    /// twice is refused (a dictionary has one value per key, and which one a reader keeps is not ours to guess).
    @inlinable  // specialised where it is declared: `Layouts` is written at every transition
    public static func dictionary<Element>(_ name: String, of element: Parameter<Element>) -> Self where Value == [String: Element] {
        let signature = "a{s\(element.signature)}"
        return Self(name, signature, decode: { value in
            guard value.hasSignature(signature), let decoded = try value.uniqueDictionary(name, element.decode) else {
                throw DBusError.invalidArgs("\(name) must be '\(signature)', but it is '\(value.signature)'")
            }
            return decoded
        }, encode: { dictionary in
            .array(element: "{s\(element.signature)}", dictionary.keys.sorted().map { .dictEntry(.string($0), element.encode(dictionary[$0]!)) })
        }, write: { dictionary, writer in
            writer.array(alignment: 8) { entries in
                for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                    entries.structure { entry in
                        entry.string(key)
                        element.writer(value, &entry)
                    }
                }
            }
        })
    }
}
