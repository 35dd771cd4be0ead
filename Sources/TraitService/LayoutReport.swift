import DBus
import TraitConfig
import TraitModel

/// One adapter's answer to a transition (`ReportLayout`'s frames and extras), checked.
///
/// A report whose extras carry `error` (a string) is a failed layout: its frames are not published, as a
/// layout that could not be computed has no true frames.
struct LayoutReport: Equatable {
    var frames: [String: Rect]
    var extras: [String: DBusValue]
    /// Bytes of the frames and extras in the wire format (what the report adds to `Layouts` and `LayoutExtras`).
    var bytes: Int

    /// The failure an adapter reported in `extras["error"]`, if any.
    var failure: String? { extras["error"]?.unwrapped.string }

    /// Frames larger than this (in points, either way) are refused as absurd.
    static let maximumCoordinate = 100_000.0

    init(frames value: DBusValue, extras extrasValue: DBusValue, budget: PublishBudget) throws {
        let limits = budget.limits
        guard case .array(_, let entries) = value else { throw DBusError.invalidArgs("frames must be a{s(dddd)}") }
        guard entries.count <= limits.elementsPerReport else {
            throw DBusError(Layout1.Error.limitExceeded,
                            "the report has \(entries.count) elements; at most \(limits.elementsPerReport) are allowed "
                                + "(limits.elements-per-report)")
        }
        var frames: [String: Rect] = [:]
        for entry in entries {
            guard case .dictEntry(.string(let name), .structure(let fields)) = entry, fields.count == 4 else {
                throw DBusError.invalidArgs("frames must be a{s(dddd)}")
            }
            try Self.checkName(name, what: "element")
            let numbers = fields.compactMap(\.double)
            let labels = ["x", "y", "width", "height"]
            for (label, number) in zip(labels, numbers) where !number.isFinite || abs(number) > Self.maximumCoordinate {
                throw DBusError.invalidArgs(
                    "element '\(name)': \(label) is \(number); coordinates must be finite and within ±\(Int(Self.maximumCoordinate))")
            }
            guard numbers[2] >= 0, numbers[3] >= 0 else {
                throw DBusError.invalidArgs("element '\(name)': width and height must not be negative (got \(numbers[2].compact) x \(numbers[3].compact))")
            }
            guard frames[name] == nil else { throw DBusError.invalidArgs("element '\(name)' appears twice in the report") }
            frames[name] = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        guard let extras = extrasValue.dictionary else { throw DBusError.invalidArgs("extras must be a{sv}") }
        guard extras.count <= limits.extrasPerReport else {
            throw DBusError(Layout1.Error.limitExceeded,
                            "the report has \(extras.count) extras; at most \(limits.extrasPerReport) are allowed "
                                + "(limits.extras-per-report)")
        }
        for key in extras.keys { try Self.checkName(key, what: "extras key") }
        try budget.checkDepth(extrasValue, "the report's extras")
        if let error = extras["error"], error.unwrapped.string == nil {
            throw DBusError.invalidArgs("extras 'error' must be a string (the reason the layout failed), not \(error.unwrapped.signature)")
        }
        self.frames = frames
        self.extras = extras.mapValues(\.unwrapped)
        bytes = Encoding.layouts(["": frames]).wireSize + DBusValue.vardict(self.extras).wireSize
        try budget.checkBytes(bytes, "the report", limit: limits.reportBytes, key: "report-bytes")
    }

    /// Names of adapters, elements and extras keys: 1-64 characters from A-Z a-z 0-9 `_ - .`
    static let nameRule = "1-64 characters from A-Z, a-z, 0-9, '_', '-' and '.'"

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
    }

    static func checkName(_ name: String, what: String) throws {
        guard isValidName(name) else {
            throw DBusError.invalidArgs("'\(name.printable)' is not a valid \(what) name: use \(nameRule)")
        }
    }
}
