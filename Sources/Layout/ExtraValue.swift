import Vocabulary
/// The value of an `extra NAME = VALUE` line: what a layout file reports beside its frames (`ReportLayout`'s
/// extras), as the built-in adapters report `presentation` or `pages`.
///
///     extra presentation = fullScreen          a word (or "a quoted string")
///     extra pages = 2                          a number
///     extra collapsed = true                   true or false
///     extra ratio = 0.7 * aspect-ratio         [NUMBER *] width, height or aspect-ratio of the window
public enum ExtraValue: Sendable, Equatable, CustomStringConvertible {
    /// A word or a quoted string, reported as it is.
    case string(String)
    /// A number, reported as it is.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `multiplier` times a measure of the window, computed when the layout is solved.
    case measure(Measure, multiplier: Double)

    /// A measure of the window an extra can be computed from; the raw value is the word in the file.
    public enum Measure: String, Sendable, CaseIterable {
        /// The window's width in points.
        case width
        /// The window's height in points.
        case height
        /// Width divided by height.
        case aspectRatio = "aspect-ratio"
    }

    /// The value to report for a window in `environment`: a measure becomes a number, the rest stay as they are.
    public func resolved(in environment: LayoutEnvironment) -> Extra {
        switch self {
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .measure(let measure, let multiplier):
            let value: Double
            switch measure {
            case .width: value = environment.width
            case .height: value = environment.height
            case .aspectRatio: value = environment.aspectRatio
            }
            return .number(multiplier * value)
        }
    }

    /// As written in a layout file: `fullScreen`, `2`, `true`, `0.7 * aspect-ratio`.
    public var description: String {
        switch self {
        case .string(let s): return s
        case .number(let n): return n.compact
        case .bool(let b): return String(b)
        case .measure(let m, let k): return (k == 1 ? "" : "\(k.compact) * ") + m.rawValue
        }
    }
}

/// A value reported beside the frames (`ReportLayout`'s extras): what an `ExtraValue` gives once the window is
/// known, and what a Swift adapter reports.
public enum Extra: Sendable, Equatable, CustomStringConvertible {
    /// A string (on the bus: a variant of `s`).
    case string(String)
    /// A number (a variant of `d`).
    case number(Double)
    /// A boolean (a variant of `b`).
    case bool(Bool)

    /// The value as text: `fullScreen`, `2`, `true`.
    public var description: String {
        switch self {
        case .string(let s): return s
        case .number(let d): return d.compact
        case .bool(let b): return String(b)
        }
    }
}
