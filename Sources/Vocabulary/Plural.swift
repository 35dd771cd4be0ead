/// A count and its noun as a person writes them: `1 run`, `2 runs` (English's regular plural, the nouns
/// traitd counts: runs, reports, combinations, lines, frames).
public enum Plural {
    public static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
