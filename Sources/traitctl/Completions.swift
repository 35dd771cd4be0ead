import TraitConfig
import TraitModel
import Vocabulary

/// Values the shell completions offer (`traitctl --generate-completion-script bash|zsh|fish`).
enum Completions {
    /// The device ids of the embedded catalog: the daemon's, unless its config adds profiles.
    static var devices: [String] { (try? ProfileLoader.catalog().ids) ?? [] }
    static let orientations = Orientation.allCases.map(\.rawValue)
    static let arrangements = Arrangement.allCases.map(\.rawValue)
    static let roles = Role.allCases.map(\.rawValue)

    @Sendable static func device(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        devices.filter { $0.hasPrefix(prefix) }
    }

    /// `traitctl set PROPERTY VALUE`: the values of the property already typed.
    @Sendable static func setValue(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let property = words.prefix(index).last { SetCommand.properties.contains($0) }
        let values: [String]
        switch property {
        case "device": values = devices
        case "orientation": values = orientations
        case "arrangement": values = arrangements
        case "windowing": values = Windowing.allCases.map(\.rawValue)
        case "keyboard": values = KeyboardMode.allCases.map(\.rawValue)
        default:
            let trait = property.flatMap(DisplayTrait.withWord)
            values = (trait?.values ?? []) + (trait?.isOrdered == true ? ["increment", "decrement"] : [])
        }
        return values.filter { $0.hasPrefix(prefix) }
    }
}
