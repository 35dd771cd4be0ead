import DBus

extension DBusValue {
    /// `{'k': <{'k': <... 'leaf' ...>}>}`: `levels` dictionaries nested in variants, 3 containers a level
    /// (the array, the dict entry, the variant), for the tests of depth limits.
    public static func nested(_ levels: Int) -> DBusValue {
        var value = DBusValue.string("leaf")
        for _ in 0..<levels { value = .vardict(["k": value]) }
        return value
    }
}
