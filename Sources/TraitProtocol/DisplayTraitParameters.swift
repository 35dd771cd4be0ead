import DBus
import Vocabulary

/// The display-wide settings on the wire, all read from the one table (`DisplayTrait.all`): a property per trait
/// (`s`, or `b` for a flag), `SetTraits`' `a{sv}` of changes, and the entries a window's `Traits` and the
/// transition context carry.
extension Parameter where Value == String {
    /// One trait's value under `name`: a string it accepts, or for a flag a boolean (`on` is `true`).
    public static func displayTrait(_ trait: DisplayTrait, name: String) -> Self {
        if trait.isFlag {
            return Parameter<Bool>.boolean(name).map(decode: { $0 ? "on" : "off" }, encode: { $0 == "on" })
        }
        return Parameter<String>.string(name).map(decode: { value in
            guard trait.accepts(value) else {
                throw DBusError.invalidArgs(
                    "unknown \(name) '\(value.printable)'; expected one of: \(trait.valueList)")
            }
            return value
        }, encode: { $0 })
    }
}

extension Parameter where Value == [DisplayTrait: String] {
    /// `a{sv}`: property name (`Appearance`) to value, as `SetTraits` takes them. All or nothing: an unknown key, a
    /// value of the wrong type or one the trait does not accept is refused, naming the key and what it accepts.
    public static func traitChanges(_ name: String) -> Self {
        Parameter<[String: DBusValue]>.vardict(name).map(decode: { entries in
            var changes: [DisplayTrait: String] = [:]
            for key in entries.keys.sorted() {
                guard let trait = DisplayTrait.withProperty(key) else {
                    throw DBusError.invalidArgs(
                        "unknown setting '\(key.printable)'; the settings are: \(DisplayTrait.propertyList)")
                }
                let parameter = Parameter<String>.displayTrait(trait, name: key)
                let value = entries[key]!.unwrapped
                guard value.hasSignature(parameter.signature) else {
                    throw DBusError.invalidArgs(
                        "\(key) must be '\(parameter.signature)' (\(trait.isFlag ? "true or false" : trait.valueList)), but it is '\(value.signature)'")
                }
                changes[trait] = try parameter.decode(value)
            }
            return changes
        }, encode: { changes in
            Dictionary(uniqueKeysWithValues: changes.map { trait, value in
                (trait.property, Parameter<String>.displayTrait(trait, name: trait.property).encode(value))
            })
        })
    }
}

extension DisplayTraits {
    /// The record fields of the traits in `which`, each under its `key`, read from the part of a record `traits`
    /// gives: the window traits in a window's `Traits`, all of them in the transition context.
    static func fields<Record>(
        of which: [DisplayTrait], _ traits: @escaping @Sendable (Record) -> DisplayTraits
    ) -> [RecordFields<Record>.Field] {
        which.map { trait in .field(Parameter<String>.displayTrait(trait, name: trait.key)) { traits($0)[trait] } }
    }

    /// Reads the fields `fields` wrote; a trait missing from the record keeps its default (a record from an
    /// older daemon).
    static func read(_ read: RecordReader, of which: [DisplayTrait]) throws -> DisplayTraits {
        var traits = DisplayTraits()
        for trait in which {
            if let value = try read.optional(Parameter<String>.displayTrait(trait, name: trait.key)) { traits[trait] = value }
        }
        return traits
    }
}
