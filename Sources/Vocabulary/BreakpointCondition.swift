/// A breakpoint's condition as libadwaita writes it (`AdwBreakpointCondition`, libadwaita 1.4; Debian 12 ships
/// 1.2, which has none): `max-width: 550sp`, `min-aspect-ratio: 4/3`, `min-width: 400px and (max-aspect-ratio:
/// 4/3 or max-height: 400px)`. Parsed as `adw_breakpoint_condition_parse` parses (its grammar, its errors, the
/// same place for each): blanks are spaces; `and` and `or` take no precedence over each other, each applies to
/// all that comes before it ("the first operator takes priority": `a or b and c` is `(a or b) and c`);
/// parentheses group. Where C's number readers are looser, traitd is stricter: decimal numbers only (no hex, no
/// tab or newline before a number), and a text holds at most `maximumLength` characters and `maximumTerms`
/// conditions. Its text (`description`) is `adw_breakpoint_condition_to_string`'s but for very large or small
/// numbers, written in full rather than as `%g`'s exponent.
///
/// Units as libadwaita converts them (`adw_length_unit_to_px`), with a window's point as GTK's logical pixel (both
/// are the unit a window's size is given in, before the display's scale): `px` is a point; `sp` is `px` times
/// the text scale (GTK's `gtk-xft-dpi` / 96; here the content size category's, `ContentSizeCategory.scale`); `pt`
/// is `px` times dpi / 72, 4/3 of an `sp`. A value without a unit is `px`, as in libadwaita, and as there it must
/// end the condition or come before `)`: `max-width: 500 or ...` is refused (unknown unit), `max-width: 500px or
/// ...` is not. libadwaita's own table of texts (tests/test-breakpoint.c) is `BreakpointConditionTests`'.
public indirect enum BreakpointCondition: Sendable, Hashable, CustomStringConvertible {
    /// `min-width: 500px`: the window's width (or height) against a length.
    case length(LengthType, Double, LengthUnit)
    /// `max-aspect-ratio: 4/3`: width over height against a ratio of two integers (height at least 1).
    case ratio(RatioType, width: Int, height: Int)
    /// Both hold (`and`).
    case all(BreakpointCondition, BreakpointCondition)
    /// Either holds (`or`).
    case any(BreakpointCondition, BreakpointCondition)

    public enum LengthType: String, Sendable, CaseIterable {
        case minWidth = "min-width", maxWidth = "max-width", minHeight = "min-height", maxHeight = "max-height"
    }

    public enum RatioType: String, Sendable, CaseIterable {
        case minAspectRatio = "min-aspect-ratio", maxAspectRatio = "max-aspect-ratio"
    }

    public enum LengthUnit: String, Sendable, CaseIterable {
        case px, pt, sp
    }

    /// What a condition is measured against: the window's size in points and the text's scale (`sp`, `pt`);
    /// the display's scale is not libadwaita's business (its pixels are logical ones), kept for a reader.
    public struct Window: Sendable, Hashable {
        public var width: Double
        public var height: Double
        public var displayScale: Double
        public var textScale: Double

        public init(width: Double, height: Double, displayScale: Double, textScale: Double) {
            self.width = width
            self.height = height
            self.displayScale = displayScale
            self.textScale = textScale
        }

        /// A window `width` x `height` points with `traits`: its display's scale (`px`) and its text size's
        /// scale (`sp`, `pt`). The one place a window becomes what breakpoints are judged against (the daemon's
        /// `Breakpoints`, a layout file's sections, the adapter host's check of what it declared).
        public init(width: Double, height: Double, traits: TraitCollection) {
            self.init(width: width, height: height, displayScale: traits.displayScale, textScale: traits.display.contentSize.scale)
        }
    }

    /// The names of `breakpoints` whose condition holds for `window`, sorted: a window's `Breakpoints`, as the
    /// daemon publishes them and the adapter host checks them.
    public static func holding(_ breakpoints: [String: BreakpointCondition], in window: Window) -> [String] {
        breakpoints.filter { $0.value.holds(in: window) }.keys.sorted()
    }

    /// Whether the condition holds for `window`: as libadwaita checks it, `min-` inclusive (`>=`), `max-`
    /// inclusive (`<=`), the ratio as width / height.
    public func holds(in window: Window) -> Bool {
        switch self {
        case .all(let a, let b): return a.holds(in: window) && b.holds(in: window)
        case .any(let a, let b): return a.holds(in: window) || b.holds(in: window)
        case .length(let type, let value, let unit):
            // Both sides in points, as `adw_length_unit_to_px` turns a length into logical pixels.
            let limit: Double = switch unit {
            case .px: value
            case .sp: value * window.textScale
            case .pt: value * window.textScale * 96 / 72
            }
            switch type {
            case .minWidth: return window.width >= limit
            case .maxWidth: return window.width <= limit
            case .minHeight: return window.height >= limit
            case .maxHeight: return window.height <= limit
            }
        case .ratio(let type, let width, let height):
            let ratio = Double(width) / Double(height), aspect = window.width / window.height
            return type == .minAspectRatio ? aspect >= ratio : aspect <= ratio
        }
    }

    /// libadwaita's text of the condition: `max-width: 550sp`, `min-aspect-ratio: 4/3` (`4` for `4/1`), nested
    /// conditions of the other operator in parentheses.
    public var description: String {
        switch self {
        case .length(let type, let value, let unit):
            return "\(type.rawValue): \(value.compact)\(unit.rawValue)"
        case .ratio(let type, let width, let height):
            return width == 0 || height == 1 ? "\(type.rawValue): \(width)" : "\(type.rawValue): \(width)/\(height)"
        case .all(let a, let b), .any(let a, let b):
            let isAll = if case .all = self { true } else { false }
            func side(_ c: BreakpointCondition) -> String {
                switch c {
                case .all: return isAll ? c.description : "(\(c.description))"
                case .any: return isAll ? "(\(c.description))" : c.description
                default: return c.description
                }
            }
            return "\(side(a)) \(isAll ? "and" : "or") \(side(b))"
        }
    }

    /// Why a text is no condition: what was expected and where (`column`, from 1, of the text as given).
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// libadwaita's words for it: `unknown unit`, `unexpected character`, ...
        public let problem: String
        /// What would have been read there.
        public let expected: String
        public let column: Int

        public var description: String { "\(problem) at column \(column): expected \(expected)" }
    }

    /// The longest text and the most conditions (and parentheses) one may hold: a condition is judged by
    /// recursion, so a text from the bus or a file is held to a depth no stack can mind (libadwaita's own
    /// conditions are a handful of terms).
    public static let maximumLength = 1024
    public static let maximumTerms = 32

    /// Parses `text` as `adw_breakpoint_condition_parse` does; throws where it stops.
    public init(parsing text: String) throws(SyntaxError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw SyntaxError(problem: "condition too long", expected: "at most \(Self.maximumLength) characters", column: Self.maximumLength + 1)
        }
        var parser = Parser(bytes: bytes)
        parser.skipSpaces()
        let parsed = parser.multi()
        switch parsed {
        case .success(let condition) where parser.at >= parser.bytes.count:
            self = condition
        case .success:
            throw parser.error(.unexpectedCharacter, expected: "'and', 'or' or the end after a condition")
        case .failure(let error):
            throw error
        }
    }

    /// The recursive descent of libadwaita's parser, over the text's bytes (its grammar is ASCII).
    private struct Parser {
        let bytes: [UInt8]
        var at = 0
        /// Conditions and groups read so far: held to `maximumTerms`.
        var terms = 0

        enum Problem: String {
            case invalidValue = "unable to parse value", unexpectedCharacter = "unexpected character"
            case unknownOperator = "unknown operator", unknownType = "unknown type", unknownUnit = "unknown unit"
            case outOfRange = "value is out of range"
        }

        func error(_ problem: Problem, expected: String) -> SyntaxError {
            SyntaxError(problem: problem.rawValue, expected: expected, column: at + 1)
        }

        var current: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpaces() { while current == UInt8(ascii: " ") { at += 1 } }

        mutating func take(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard at + w.count <= bytes.count, Array(bytes[at..<at + w.count]) == w else { return false }
            at += w.count
            return true
        }

        /// After a value: a space, `)` or the end.
        var atBoundary: Bool { current == nil || current == UInt8(ascii: " ") || current == UInt8(ascii: ")") }

        /// A condition, then `and`/`or` and another, each applying to all before it.
        mutating func multi() -> Result<BreakpointCondition, SyntaxError> {
            skipSpaces()
            var first: BreakpointCondition
            switch grouped() {
            case .success(let c): first = c
            case .failure(let e): return .failure(e)
            }
            while current == UInt8(ascii: " ") {
                skipSpaces()
                let isAll: Bool
                if take("and") { isAll = true } else if take("or") { isAll = false } else if atBoundary {
                    return .success(first)
                } else {
                    return .failure(error(.unknownOperator, expected: "'and' or 'or'"))
                }
                guard current == UInt8(ascii: " ") else {
                    return .failure(error(.unexpectedCharacter, expected: "a space after '\(isAll ? "and" : "or")'"))
                }
                skipSpaces()
                switch grouped() {
                case .success(let second): first = isAll ? .all(first, second) : .any(first, second)
                case .failure(let e): return .failure(e)
                }
            }
            skipSpaces()
            return .success(first)
        }

        /// `(` a condition `)`, or one length or ratio condition.
        mutating func grouped() -> Result<BreakpointCondition, SyntaxError> {
            terms += 1
            guard terms <= BreakpointCondition.maximumTerms else {
                return .failure(SyntaxError(problem: "too many conditions", expected: "at most \(BreakpointCondition.maximumTerms) conditions and groups",
                                            column: at + 1))
            }
            guard current == UInt8(ascii: "(") else { return single() }
            at += 1
            let inner = multi()
            guard case .success = inner else { return inner }
            guard current == UInt8(ascii: ")") else { return .failure(error(.unexpectedCharacter, expected: "')'")) }
            at += 1
            return inner
        }

        mutating func single() -> Result<BreakpointCondition, SyntaxError> {
            let lengthType = BreakpointCondition.LengthType.allCases.first { take($0.rawValue) }
            let ratioType = lengthType == nil ? BreakpointCondition.RatioType.allCases.first { take($0.rawValue) } : nil
            guard lengthType != nil || ratioType != nil else {
                return .failure(error(.unknownType, expected: "min-width, max-width, min-height, max-height, min-aspect-ratio or max-aspect-ratio"))
            }
            skipSpaces()
            guard current == UInt8(ascii: ":") else { return .failure(error(.unexpectedCharacter, expected: "':'")) }
            at += 1
            skipSpaces()
            if let lengthType {
                let start = at
                guard let value = number(), value.isFinite else { return .failure(error(.invalidValue, expected: "a number")) }
                guard value >= 0 else {
                    at = start
                    return .failure(error(.outOfRange, expected: "a length of 0 or more"))
                }
                skipSpaces()
                let unit = LengthUnit.allCases.first { take($0.rawValue) }
                guard unit != nil || atBoundary else { return .failure(error(.unknownUnit, expected: "px, pt or sp")) }
                guard atBoundary else { return .failure(error(.unexpectedCharacter, expected: "a space, ')' or the end after the unit")) }
                return .success(.length(lengthType, value, unit ?? .px))
            }
            let start = at
            guard let width = integer() else { return .failure(error(.invalidValue, expected: "a whole number")) }
            guard width >= 0 else {
                at = start
                return .failure(error(.outOfRange, expected: "a ratio's width of 0 or more"))
            }
            skipSpaces()
            var height = 1
            if current == UInt8(ascii: "/") {
                at += 1
                skipSpaces()
                let heightStart = at
                guard let h = integer() else { return .failure(error(.invalidValue, expected: "a whole number")) }
                guard h >= 1 else {
                    at = heightStart
                    return .failure(error(.outOfRange, expected: "a ratio's height of 1 or more"))
                }
                height = h
            }
            guard atBoundary else { return .failure(error(.unexpectedCharacter, expected: "'/', a space, ')' or the end")) }
            return .success(.ratio(ratioType!, width: width, height: height))
        }

        /// A decimal number as `g_ascii_strtod` reads one (sign, digits, fraction, exponent); nil (and `at`
        /// unmoved) when none starts here.
        mutating func number() -> Double? {
            let start = at
            var end = at
            func digits() -> Int {
                let from = end
                while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                return end - from
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+") { end += 1 }
            var count = digits()
            if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
                end += 1
                count += digits()
            }
            guard count > 0 else { return nil }
            if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
                let mark = end
                end += 1
                if end < bytes.count, bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+") { end += 1 }
                if digits() == 0 { end = mark }
            }
            guard let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)) else { return nil }
            at = end
            return value
        }

        /// An integer as `strtol` reads one, held to Int32's range as libadwaita clamps it; nil (and `at`
        /// unmoved) when none, or past a 64-bit long.
        mutating func integer() -> Int? {
            var end = at
            if end < bytes.count, bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+") { end += 1 }
            let digitsStart = end
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            guard end > digitsStart else { return nil }
            // Past a long's range strtol fails (an invalid value); past an int's libadwaita clamps it.
            guard let value = Int(String(decoding: bytes[at..<end], as: UTF8.self)) else { return nil }
            at = end
            return min(max(value, Int(Int32.min)), Int(Int32.max))
        }
    }
}
