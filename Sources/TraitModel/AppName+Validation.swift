import Vocabulary

/// The app-name rule as the model refuses a name: `invalidArgument` with the name shown and the rule.
extension AppName {
    /// Throws `invalidArgument` with a message that shows the name (shortened) and the rule.
    public static func validate(_ name: String) throws(ModelError) {
        guard isValid(name) else {
            let shown = name.count > 40 ? String(name.prefix(40)) + "… (\(name.utf8.count) bytes)" : name
            let what = name.isEmpty ? "an empty app name" : "'\(shown.filter { !$0.isASCII || $0.isLetter || $0.isNumber || "_-. ".contains($0) })'"
            throw .invalidArgument("\(what) is not a valid app name: use \(rule)")
        }
    }
}
