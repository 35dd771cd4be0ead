/// The known word a mistyped one most likely meant (`did you mean ipad-9.7?`): the nearest by edit distance
/// (insertions, deletions, substitutions and swaps of neighbours, case aside), close enough to be a slip (at
/// most a third of the word's length, and 3), and nearer than any other; or a known word that contains the
/// typed one or is contained in it, when only one does.
public enum Suggestion {
    public static func nearest(_ typed: String, among known: [String]) -> String? {
        // A name far longer than any known word is no slip of the keyboard; looking for one in it cost 646 MiB
        // and 16 s for a 3 MB device name (the distance's table is the product of both lengths).
        let longest = known.lazy.map(\.count).max() ?? 0
        guard typed.utf8.count <= max(longest * 2, Self.longestTyped) else { return nil }
        let word = Array(typed.lowercased())
        guard !word.isEmpty, !known.contains(typed) else { return nil }
        let limit = min(3, max(1, word.count / 3))
        // Two words whose lengths differ by more than the limit are further apart than it: not worth the table.
        let scored = known.filter { abs($0.count - word.count) <= limit }
            .map { ($0, distance(word, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        if let best = scored.min(by: { $0.1 < $1.1 }), scored.filter({ $0.1 == best.1 }).count == 1 { return best.0 }
        let lower = typed.lowercased()
        let containing = known.filter { $0.lowercased().contains(lower) || lower.contains($0.lowercased()) }
        return containing.count == 1 ? containing[0] : nil
    }

    /// The longest typed word a suggestion is looked for in, whatever the known words' lengths.
    static let longestTyped = 256

    /// `did you mean X? ` for a slip, empty otherwise: what errors put before their list of known words.
    public static func phrase(_ typed: String, among known: [String]) -> String {
        nearest(typed, among: known).map { "did you mean \($0)? " } ?? ""
    }

    /// The optimal string alignment distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
