/// Reads one line of a layout file, character by character, keeping the column for error messages.
struct LineScanner {
    let file: String
    let line: Int
    let characters: [Character]
    var position = 0

    init(file: String, line: Int, text: Substring) {
        self.file = file
        self.line = line
        characters = Array(text)
    }

    /// 1-based column of the current position.
    var column: Int { position + 1 }
    var peek: Character? { position < characters.count ? characters[position] : nil }


    mutating func skip() {
        while position < characters.count, characters[position] == " " || characters[position] == "\t" { position += 1 }
    }

    func error(_ message: String, at column: Int? = nil) -> LayoutError {
        .syntax(file: file, line: line, column: column ?? self.column, message: message)
    }

    /// Describes what is at the current position, for "expected X, found Y".
    var found: String {
        var copy = self
        copy.skip()
        guard copy.position < characters.count else { return "the end of the line" }
        return "'" + String(characters[copy.position...].prefix(12)) + "'"
    }

    mutating func accept(_ text: String) -> Bool {
        skip()
        let chars = Array(text)
        guard position + chars.count <= characters.count, Array(characters[position..<position + chars.count]) == chars
        else { return false }
        position += chars.count
        return true
    }

    mutating func expect(_ text: String, _ what: String) throws {
        guard accept(text) else { throw error("expected \(what), found \(found)") }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`; with `allowDash`, '-' inside the name too (app names).
    mutating func identifier(allowDash: Bool = false) -> String? {
        skip()
        guard let first = peek, first.isLetter || first == "_" else { return nil }
        var name = ""
        while let c = peek, c.isLetter || c.isNumber || c == "_" || (allowDash && c == "-" && !name.isEmpty && nextIsWordAfterDash) {
            name.append(c)
            position += 1
        }
        return name
    }

    /// In `my-app` the dash joins two words of the name.
    private var nextIsWordAfterDash: Bool {
        position + 1 < characters.count && (characters[position + 1].isLetter || characters[position + 1].isNumber)
    }

    /// An unsigned decimal number (`8`, `0.5`, `1e3`).
    mutating func number() -> Double? {
        skip()
        let start = position
        while let c = peek, c.isNumber || c == "." || c == "e" || c == "E" { position += 1 }
        guard position > start, let value = Double(String(characters[start..<position])), value.isFinite else {
            position = start
            return nil
        }
        return value
    }
}

extension LineScanner {
    var atEndOfLine: Bool {
        var copy = self
        copy.skip()
        return copy.position >= copy.characters.count
    }

    var columnAfterSpaces: Int {
        var copy = self
        copy.skip()
        return copy.column
    }

    /// Accepts `word` only as a whole word (`or` but not the start of `orientation`).
    mutating func acceptWord(_ word: String) -> Bool {
        guard peekWord(word) else { return false }
        skip()
        position += word.count
        return true
    }

    func peekWord(_ word: String) -> Bool {
        var copy = self
        copy.skip()
        let chars = Array(word)
        guard copy.position + chars.count <= copy.characters.count,
              Array(copy.characters[copy.position..<copy.position + chars.count]) == chars else { return false }
        let after = copy.position + chars.count
        return after == copy.characters.count || !(copy.characters[after].isLetter || copy.characters[after].isNumber
            || copy.characters[after] == "_" || copy.characters[after] == "-")
    }

    mutating func peekIs(_ c: Character) -> Bool {
        skip()
        return peek == c
    }
}

