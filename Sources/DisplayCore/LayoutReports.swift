/// Every window's accepted reports (app -> adapter -> its latest report), with each app's report bytes summed as
/// reports come and go, and those sums summed (kept by the core): the budget checks read both at every report, and working them out
/// there over every adapter made a transition's checks O(n²) in its adapters. All three change only here, together.
public struct LayoutReports: Sendable {
    public init() {}

    private var reports: [String: [String: LayoutReport]] = [:]
    private var sums: [String: Int] = [:]
    /// Every app's sum, summed.
    public private(set) var totalBytes = 0

    /// `app`'s reports by adapter; nil when it has none.
    public subscript(app: String) -> [String: LayoutReport]? { reports[app] }

    /// The bytes of `app`'s reports (`LayoutReport.bytes`), summed.
    public func bytes(of app: String) -> Int { sums[app] ?? 0 }

    /// `adapter`'s report for `app` replaces its last one.
    public mutating func set(_ report: LayoutReport, app: String, adapter: String) {
        let old = reports[app, default: [:]].updateValue(report, forKey: adapter)?.bytes ?? 0
        sums[app, default: 0] += report.bytes - old
        totalBytes += report.bytes - old
    }

    /// `adapter`'s report for `app` goes.
    public mutating func remove(app: String, adapter: String) {
        if let gone = reports[app]?.removeValue(forKey: adapter) {
            sums[app, default: 0] -= gone.bytes
            totalBytes -= gone.bytes
        }
    }

    /// Every report for `app` goes (its window closed).
    public mutating func removeAll(of app: String) {
        reports[app] = nil
        totalBytes -= sums.removeValue(forKey: app) ?? 0
    }
}
