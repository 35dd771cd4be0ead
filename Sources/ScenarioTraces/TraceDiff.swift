import Vocabulary

/// A line diff of two texts (the longest common subsequence): `-` for a golden line this run lacks, `+` for a
/// line this run adds, two spaces for the lines around them. Lines match when they are equal, or where the golden
/// writes an accessibility snapshot's name as a `/pattern/` (a trace's `aria` lines, indented) that the run's
/// name matches (`AriaSnapshot.lineMatches`).
public enum TraceDiff {
    /// Whether the run's trace matches the golden one, line for line.
    public static func matches(golden: String, _ run: String) -> Bool {
        if golden == run { return true }
        let a = golden.split(separator: "\n", omittingEmptySubsequences: false), b = run.split(separator: "\n", omittingEmptySubsequences: false)
        return a.count == b.count && zip(a, b).allSatisfy { same(String($0), String($1)) }
    }

    /// Equal, or an indented snapshot line whose golden name is a pattern the run's name matches.
    static func same(_ golden: String, _ line: String) -> Bool {
        golden == line || (golden.hasPrefix("  ") && line.hasPrefix("  ") && AriaSnapshot.lineMatches(golden, line))
    }

    /// How a line that stands for lines left out begins: `… 12 lines the same`.
    public static let gap = "…"

    public static func lines(_ old: String, _ new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var common = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = same(a[i], b[j]) ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var out: [String] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, same(a[i], b[j]) {
                out.append("  " + a[i]); i += 1; j += 1
            } else if i < a.count, j == b.count || common[i + 1][j] >= common[i][j + 1] {
                out.append("- " + a[i]); i += 1
            } else {
                out.append("+ " + b[j]); j += 1
            }
        }
        // Only the changes and two lines of context around each; where lines the same are left out between two
        // of them, a line says how many (a reader must never take two distant lines for neighbours).
        let changed = out.indices.filter { !out[$0].hasPrefix("  ") }
        let shown = out.indices.filter(Set(changed.flatMap { max(0, $0 - 2)...min(out.count - 1, $0 + 2) }).contains)
        var lines: [String] = []
        for (position, index) in shown.enumerated() {
            if position > 0, index - shown[position - 1] > 1 {
                let skipped = index - shown[position - 1] - 1
                lines.append("\(Self.gap) \(skipped) line\(skipped == 1 ? "" : "s") the same")
            }
            lines.append(out[index])
        }
        return lines.joined(separator: "\n")
    }
}
