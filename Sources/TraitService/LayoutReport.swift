import DBus
import TraitConfig
import TraitModel
import TraitProtocol

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
            try ReportName.check(name, what: "element")
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
        for key in extras.keys { try ReportName.check(key, what: "extras key") }
        try budget.checkDepth(extrasValue, "the report's extras")
        if let error = extras["error"], error.unwrapped.string == nil {
            throw DBusError.invalidArgs("extras 'error' must be a string (the reason the layout failed), not \(error.unwrapped.signature)")
        }
        self.frames = frames
        self.extras = extras.mapValues(\.unwrapped)
        bytes = Encoding.layouts(["": frames]).wireSize + DBusValue.vardict(self.extras).wireSize
        try budget.checkBytes(bytes, "the report", limit: limits.reportBytes, key: "report-bytes")
    }
}
