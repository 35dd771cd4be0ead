import ArgumentParser

/// The one rule for an option that takes seconds (`--timeout`): a finite number above 0 and at most a week.
/// A wait becomes a `Duration` (whole attoseconds in 128 bits); `--timeout 1e300` once stopped traitctl there
/// with a trap (exit 132) instead of an error naming the option.
enum SecondsOption {
    /// The longest wait an option may ask for: a week.
    static let longest: Double = 7 * 24 * 3600

    /// Throws a `ValidationError` naming `option` unless `value` is within (0, `longest`].
    static func check(_ value: Double, _ option: String = "--timeout") throws {
        guard value.isFinite, value > 0, value <= longest else {
            throw ValidationError("\(option) takes a number of seconds above 0 and at most \(Int(longest)) (a week); got \(value)")
        }
    }
}
