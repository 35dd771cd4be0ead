/// A command line split into words as a shell would split it, without running a shell: blanks separate words;
/// single quotes keep everything up to the next one; double quotes keep everything but a backslash before
/// `"`, `\` or `$`; a backslash outside quotes keeps the next character. Nothing is expanded (no variables,
/// no globs, no `~`): `--app notes='gnome-calculator --mode=basic'` runs exactly that program with that argument.
public enum ShellWords {
    /// A quote left open: the line cannot be split.
    public struct Unterminated: Error, CustomStringConvertible {
        public let description: String
    }

    /// `word` as a shell reads it back as one word (and as `split` does): as it is when every character is
    /// safe, else in single quotes.
    public static func quoted(_ word: String) -> String {
        let safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-/=:@,%"
        guard word.isEmpty || !word.allSatisfy(safe.contains) else { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// The words of `line`; throws `Unterminated` when a quote is left open.
    public static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = Array(line).makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" { closed = true; break }
                    word.append(next)
                }
                guard closed else { throw Unterminated(description: "a single quote is not closed in: \(line)") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if escaped != "\"" && escaped != "\\" && escaped != "$" { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { throw Unterminated(description: "a double quote is not closed in: \(line)") }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else { throw Unterminated(description: "a backslash ends: \(line)") }
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
