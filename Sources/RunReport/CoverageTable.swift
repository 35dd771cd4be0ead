import Vocabulary

/// The report of what a run covered (`traitctl coverage`, `scenario run --coverage`, the pytest plugin's
/// `--traitd-coverage`): a line per mode a window was in, then each dimension's values no window ever had.
public enum CoverageTable {
    public static func lines(_ modes: Set<DrivenMode>) -> [String] {
        let sorted = modes.sorted()
        let header = ["device class", "orientation", "placement", "size classes", "settings"]
        let rows = sorted.map { [$0.deviceClass.description, $0.orientation, $0.placement.description, $0.sizeClasses, $0.settingsText] }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingTrailingSpaces
        }
        var out = ["coverage: \(modes.count) modes driven"] + (rows.isEmpty ? [] : [line(header)] + rows.map(line))
        out.append("never driven:")
        for (dimension, values) in DrivenMode.neverDriven(modes) {
            out.append("  \(dimension): " + (values.isEmpty ? "-" : values.joined(separator: ", ")))
        }
        return out
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
