import DBus
import DisplayCore
import Limits
import LayoutJudge
import TraitModel
import Vocabulary
import TraitProtocol

/// Reading `ReportLayout`'s frames and extras into the core's record, once, at the edge: checked, read (what each
/// element is, what scrolls), judged against the window it answers (`LayoutJudge`), measured as it will be
/// published. The core asks for it (`DisplayCore.Input.report`) once it knows the registration is the caller's.
extension LayoutReport {
    /// The most problems of one rule a report publishes: the first (the worst, `LayoutJudge`); the last says how many more there
    /// were (two hundred labels piled up are one mistake, not twenty thousand overlaps to send). Per rule, so
    /// that a flood of one kind never hides another (an app's small buttons behind its header's overflow).
    static let publishedPerRule = 8

    /// Frames larger than this (in points, either way) are refused as absurd. Sized for real pages: Python's
    /// `functions.html` at 320 pt and the largest text size is 615,000 pt tall, and its reports were refused at
    /// the 100,000 this once was; a browser's layout stops near 33.5 million CSS px.
    static let maximumCoordinate = 10_000_000.0

    /// Checks a report as `ReportLayout`'s declaration decoded it (the shape, and one value per name, are the
    /// declaration's business): the names, the numbers, the extras, and the limits.
    init(reading frames: [String: Rect], extras: [String: DBusValue], budget: PublishBudget,
         judgedAs adapter: String, in window: PublishedWindow, checks: LayoutChecks = LayoutChecks()) throws(Refusal) {
        let limits = budget.limits
        guard frames.count <= limits.elementsPerReport else {
            throw Refusal(.limitExceeded,
                          "the report has \(frames.count) elements; at most \(limits.elementsPerReport) are allowed "
                                + "(limits.elements-per-report)")
        }
        // Checked in the dictionary's order, which is cheap; a refusal names the first bad element by name, as
        // the checks in name order would, so the same report is always refused with the same words.
        if frames.contains(where: { (try? Self.check($0.key, $0.value)) == nil }) {
            for (name, frame) in frames.sorted(by: { $0.key < $1.key }) { try Self.check(name, frame) }
        }
        guard extras.count <= limits.extrasPerReport else {
            throw Refusal(.limitExceeded,
                          "the report has \(extras.count) extras; at most \(limits.extrasPerReport) are allowed "
                                + "(limits.extras-per-report)")
        }
        for key in extras.keys { try Refusal.of { try ReportName.check(key, what: "extras key") } }
        try Refusal.of { try budget.checkDepth(DBusValue.vardictDepth(extras), "the report's extras") }
        if let error = extras[Layout1.Window.Extras.error], error.unwrapped.string == nil {
            throw Refusal(.invalidArgs, "extras 'error' must be a string (the reason the layout failed), not \(error.unwrapped.signature)")
        }
        let layout = try Self.read(frames, extras)
        let extras = extras.mapValues(\.unwrapped)
        let failure = extras[Layout1.Window.Extras.error]?.string
        let problems = failure == nil ? Self.published(LayoutJudge.problems(of: layout, adapter: adapter, in: window, checks: checks)) : []
        let bytes = Encoding.layoutsBytes(ofOneAdapter: frames)
            + (extras.isEmpty ? Self.noExtrasBytes : DBusValue.vardict(extras).wireSize)
            + (problems.isEmpty ? Self.noProblemsBytes : Layout1.Window.layoutProblems.value.encode(problems).wireSize)
        try Refusal.of { try budget.checkBytes(bytes, "the report", limit: limits.reportBytes, key: "report-bytes") }
        self.init(frames: frames, extras: extras, bytes: bytes, problems: problems, failure: failure)
    }

    /// What no extras and no problems add, measured once (most reports have neither).
    private static let noExtrasBytes = DBusValue.vardict([:]).wireSize
    private static let noProblemsBytes = Layout1.Window.layoutProblems.value.encode([]).wireSize

    /// One element's name and frame: a valid name, finite coordinates within ±`maximumCoordinate`, and a
    /// size that is not negative.
    private static func check(_ name: String, _ frame: Rect) throws(Refusal) {
        try Refusal.of { try ReportName.check(name, what: "element") }
        func coordinate(_ label: String, _ number: Double) throws(Refusal) {
            guard !number.isFinite || abs(number) > maximumCoordinate else { return }
            throw Refusal(.invalidArgs, 
                "element '\(name)': \(label) is \(number); coordinates must be finite and within ±\(Int(maximumCoordinate))")
        }
        try coordinate("x", frame.x)
        try coordinate("y", frame.y)
        try coordinate("width", frame.width)
        try coordinate("height", frame.height)
        guard frame.width >= 0, frame.height >= 0 else {
            throw Refusal(.invalidArgs, "element '\(name)': width and height must not be negative (got \(frame.size))")
        }
    }

    /// The frames with what the extras say of them: `kinds` (a{ss}, element -> kind), `scrolledIn` (a{ss},
    /// element -> its scroll view), `minimumSize` ((dd)), `reflow` ((sd)) and `contentBoxes` (as). Refused, naming the key, where they are of another type, name an unknown
    /// kind, or scroll in an element the report does not hold or in circles.
    private static func read(_ frames: [String: Rect], _ extras: [String: DBusValue]) throws(Refusal) -> ReportedLayout {
        typealias Keys = Layout1.Window.Extras
        func decode<Value>(_ key: String, _ parameter: Parameter<Value>) throws(Refusal) -> Value? {
            guard let value = extras[key] else { return nil }
            do {
                return try parameter.decode(value.unwrapped)
            } catch {
                throw Refusal(.invalidArgs, "extras '\(key)': \((error as? DBusError)?.message ?? "\(error)")")
            }
        }
        let kinds = try decode(Keys.kinds, Keys.kindsParameter) ?? [:]
        let scrolledIn = try decode(Keys.scrolledIn, Keys.scrolledInParameter) ?? [:]
        let minimumSize = try decode(Keys.minimumSize, Keys.minimumSizeParameter)
        let reflow = try decode(Keys.reflow, Keys.reflowParameter)
        let contentBoxes = Set(try decode(Keys.contentBoxes, Keys.contentBoxesParameter) ?? [])
        let clippedText = try decode(Keys.clippedText, Keys.clippedTextParameter) ?? [:]
        let lowContrast = try decode(Keys.lowContrast, Keys.lowContrastParameter) ?? [:]
        do {
            return try ReportedLayout(frames: frames, kinds: kinds, scrolledIn: scrolledIn, minimumSize: minimumSize, reflow: reflow,
                                      contentBoxes: contentBoxes, clippedText: clippedText, lowContrast: lowContrast)
        } catch {
            throw Refusal(.invalidArgs, "extras '\(error.key)': \(error.message)")
        }
    }

    /// The first `publishedPerRule` problems of each rule, the last of them saying how many more of it there were.
    private static func published(_ problems: [LayoutProblem]) -> [LayoutProblem] {
        guard !problems.isEmpty else { return [] }
        return LayoutRule.allCases.flatMap { rule -> [LayoutProblem] in
            let all = problems.filter { $0.rule == rule }
            guard all.count > publishedPerRule else { return all }
            var kept = Array(all.prefix(publishedPerRule))
            kept[kept.count - 1].message += " (and \(all.count - publishedPerRule) more \(rule) problems in this report, not listed)"
            return kept
        }
    }
}
