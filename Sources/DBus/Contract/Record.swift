/// An `a{sv}` record: a Swift struct sent as a dictionary of named fields, each field a parameter of its own
/// (the contract's window traits, transition context and geometry). A field is named and typed once, in the
/// record's table, and both encoded and written from it.
extension Parameter {
    /// An `a{sv}` record whose fields `decode` reads one by one through their own parameters; `what` names it
    /// in refusals ("the traits").
    public static func record(
        _ name: String, what: String, decode: @escaping @Sendable (RecordReader) throws -> Value,
        fields record: RecordFields<Value>
    ) -> Self {
        let fields = Parameter<[String: DBusValue]>.vardict(name)
        return Parameter(name, fields.signature, decode: { value in
            let fields = try fields.decode(value)
            return try DBusError.inContext(what) { try decode(RecordReader(fields: fields, what: what)) }
        }, encode: record.encode, write: record.write)
    }
}

/// The fields of an `a{sv}` record as it is written: each field's key and how it encodes its part of the
/// record's value, kept in key order (the order `DBusValue.vardict` gives a dictionary). Records go out in
/// several signals of every transition, so the order is found once, when the table is made, not per record.
public struct RecordFields<Record>: Sendable {
    /// One field: its key, its value as a `DBusValue` (nil: this record has no such field), and the same
    /// written as its dictionary entry (nothing when the record has no such field).
    public struct Field: Sendable {
        @usableFromInline let key: String
        @usableFromInline let encode: @Sendable (Record) -> DBusValue?
        @usableFromInline let write: @Sendable (Record, inout WireWriter) -> Void

        @usableFromInline
        init(key: String, encode: @escaping @Sendable (Record) -> DBusValue?, write: @escaping @Sendable (Record, inout WireWriter) -> Void) {
            self.key = key
            self.encode = encode
            self.write = write
        }

        /// A field every record has, read from the record's value by `value`.
        @inlinable  // specialised where the record is declared, as `Parameter.map`
        public static func field<Value>(_ parameter: Parameter<Value>, _ value: @escaping @Sendable (Record) -> Value) -> Self {
            optionalField(parameter) { .some(value($0)) }
        }

        /// A field only some records have (`value` gives nil for the others).
        @inlinable
        public static func optionalField<Value>(
            _ parameter: Parameter<Value>, _ value: @escaping @Sendable (Record) -> Value?
        ) -> Self {
            let key = parameter.name, signature = parameter.variantSignature, write = parameter.writer
            return Self(key: key, encode: { value($0).map(parameter.encode) }) { record, writer in
                guard let present = value(record) else { return }
                writer.structure { entry in
                    entry.string(key)
                    entry.variant(signature: signature) { write(present, &$0) }
                }
            }
        }
    }

    private let fields: [Field]
    /// Entries whose keys the record's value decides (a window's custom traits), none of them a field's key:
    /// each with its value, written after nothing in particular but in key order with the fields.
    private let open: (@Sendable (Record) -> [(key: String, value: DBusValue)])?

    /// `fields` in any order; a key given twice is a mistake in the contract, caught when the table is made.
    /// `open`: the record's entries beyond its fields, if it has any.
    public init(_ fields: [Field], open: (@Sendable (Record) -> [(key: String, value: DBusValue)])? = nil) {
        self.fields = fields.sorted { $0.key < $1.key }
        self.open = open
        for (field, next) in zip(self.fields, self.fields.dropFirst()) {
            precondition(field.key != next.key, "the record field \(field.key) is declared twice")
        }
    }

    /// `a{sv}`: the record's fields, each in its variant, in key order.
    func encode(_ record: Record) -> DBusValue {
        var items: [DBusValue] = []
        items.reserveCapacity(fields.count)
        for field in fields {
            if let value = field.encode(record) { items.append(.dictEntry(.string(field.key), .variant(value))) }
        }
        let extra = open?(record) ?? []
        guard !extra.isEmpty else { return .array(element: "{sv}", items) }
        items += extra.map { .dictEntry(.string($0.key), .variant($0.value)) }
        return .array(element: "{sv}", items.sorted { $0.entryKey < $1.entryKey })
    }

    /// The same record written: the array of its entries.
    func write(_ record: Record, _ writer: inout WireWriter) {
        let extra = (open?(record) ?? []).sorted { $0.key < $1.key }
        writer.array(alignment: 8) { entries in
            var next = extra[...]
            for field in fields {
                while let entry = next.first, entry.key < field.key {
                    entries.write(.dictEntry(.string(entry.key), .variant(entry.value)))
                    next = next.dropFirst()
                }
                field.write(record, &entries)
            }
            for entry in next { entries.write(.dictEntry(.string(entry.key), .variant(entry.value))) }
        }
    }
}

extension DBusValue {
    /// A dictionary entry's string key ("" for anything else): what a record's entries are ordered by.
    fileprivate var entryKey: String {
        if case .dictEntry(.string(let key), _) = self { return key }
        return ""
    }
}

/// Reads the fields of one `a{sv}` record strictly; a missing required field is refused by name.
public struct RecordReader {
    let fields: [String: DBusValue]
    let what: String

    public func callAsFunction<Value>(_ field: Parameter<Value>) throws -> Value {
        guard let value = fields[field.name] else { throw DBusError.invalidArgs("no field \(field.name)") }
        return try field.decode(value)
    }

    public func optional<Value>(_ field: Parameter<Value>) throws -> Value? {
        try fields[field.name].map(field.decode)
    }

    /// The entries whose keys `include` takes (a record's open entries, `RecordFields(_:open:)`), unread.
    public func entries(where include: (String) -> Bool) -> [String: DBusValue] {
        fields.filter { include($0.key) }
    }
}

extension Parameter {
    /// The parameter's signature as the one complete type a variant holds: the contract's declarations are
    /// checked when they are made, so a written variant needs no check of its own.
    @usableFromInline
    var variantSignature: String {
        precondition(SignatureRules.isValid(signature, single: true), "\(name)'s signature '\(signature)' is not one complete type")
        return signature
    }
}
