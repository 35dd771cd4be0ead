import TraitModel
import Vocabulary

extension Simulation {
    /// The plan of a command that announces itself in one stage (every command but a divider move that crosses
    /// several snap points); an empty plan when nothing changes.
    mutating func step(_ command: Command) throws -> Plan {
        try apply(command).last ?? Plan(display: display, reason: command.reason)
    }
}
