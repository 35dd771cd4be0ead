/// Every window's accepted reports (app -> adapter -> its latest report), with each app's report bytes summed as
/// reports come and go: the budget checks read the sum at every report, and working it out there over every
/// adapter made a transition's checks O(n²) in its adapters. Both change only here, together.
struct LayoutReports {
    private var reports: [String: [String: LayoutReport]] = [:]
    private var sums: [String: Int] = [:]

    /// `app`'s reports by adapter; nil when it has none.
    subscript(app: String) -> [String: LayoutReport]? { reports[app] }

    /// The apps with a report.
    var apps: Dictionary<String, [String: LayoutReport]>.Keys { reports.keys }

    /// The bytes of `app`'s reports (`LayoutReport.bytes`), summed.
    func bytes(of app: String) -> Int { sums[app] ?? 0 }

    /// `adapter`'s report for `app` replaces its last one.
    mutating func set(_ report: LayoutReport, app: String, adapter: String) {
        let old = reports[app, default: [:]].updateValue(report, forKey: adapter)?.bytes ?? 0
        sums[app, default: 0] += report.bytes - old
    }

    /// `adapter`'s report for `app` goes.
    mutating func remove(app: String, adapter: String) {
        if let gone = reports[app]?.removeValue(forKey: adapter) { sums[app, default: 0] -= gone.bytes }
    }

    /// Every report for `app` goes (its window closed).
    mutating func removeAll(of app: String) {
        reports[app] = nil
        sums[app] = nil
    }
}
