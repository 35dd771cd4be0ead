import Limits
import DBus
import TraitModel
import Vocabulary
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

    /// Checks a report as `ReportLayout`'s declaration decoded it (the shape, and one value per name, are the
    /// declaration's business): the names, the numbers, the extras, and the limits.
    init(frames: [String: Rect], extras: [String: DBusValue], budget: PublishBudget) throws {
        let limits = budget.limits
        guard frames.count <= limits.elementsPerReport else {
            throw DBusError(Layout1.Error.limitExceeded,
                            "the report has \(frames.count) elements; at most \(limits.elementsPerReport) are allowed "
                                + "(limits.elements-per-report)")
        }
        for (name, frame) in frames.sorted(by: { $0.key < $1.key }) {
            try ReportName.check(name, what: "element")
            let labels = ["x", "y", "width", "height"]
            for (label, number) in zip(labels, frame.values) where !number.isFinite || abs(number) > Self.maximumCoordinate {
                throw DBusError.invalidArgs(
                    "element '\(name)': \(label) is \(number); coordinates must be finite and within ±\(Int(Self.maximumCoordinate))")
            }
            guard frame.width >= 0, frame.height >= 0 else {
                throw DBusError.invalidArgs("element '\(name)': width and height must not be negative (got \(frame.size))")
            }
        }
        guard extras.count <= limits.extrasPerReport else {
            throw DBusError(Layout1.Error.limitExceeded,
                            "the report has \(extras.count) extras; at most \(limits.extrasPerReport) are allowed "
                                + "(limits.extras-per-report)")
        }
        for key in extras.keys { try ReportName.check(key, what: "extras key") }
        try budget.checkDepth(.vardict(extras), "the report's extras")
        if let error = extras["error"], error.unwrapped.string == nil {
            throw DBusError.invalidArgs("extras 'error' must be a string (the reason the layout failed), not \(error.unwrapped.signature)")
        }
        self.frames = frames
        self.extras = extras.mapValues(\.unwrapped)
        bytes = Encoding.layouts(["": frames]).wireSize + DBusValue.vardict(self.extras).wireSize
        try budget.checkBytes(bytes, "the report", limit: limits.reportBytes, key: "report-bytes")
    }
}
