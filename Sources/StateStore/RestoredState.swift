import BusValues
import FoundationEssentials
import Limits
import TraitModel
import Vocabulary

/// What traitd starts from when its state file loads: the simulation and the restoration states it may
/// publish. Made in one place from the file's bytes (`make(from:_:)`), which the daemon's start and the fuzz
/// target both call: parse, check every field against the rules the commands keep, and only then hold it.
///
/// A file breaks a rule only if something other than traitd wrote it (every state the commands reach passes,
/// and reloads equal: `StateFileTests`), so a file that fails is refused whole and moved aside for its owner to
/// read, rather than guessed at: traitd starts from the configuration. Two exceptions load the rest and name
/// what they dropped: a restoration state past the limits of `SetRestorationState` (each is an app's own
/// value; a limit lowered in the configuration must not cost every app its state), and a setting or a value
/// of one that this version does not know (a later version wrote the file: it must not cost an older traitd
/// the whole state).
public struct RestoredState: Sendable {
    public var simulation: Simulation
    public var restoration: [String: [String: DBusValue]]
    /// The restoration states dropped for the limits, with why.
    public var dropped: [(app: String, reason: String)]
    /// The settings dropped: a setting, or a value of one, that this version does not know (a later version
    /// wrote the file), each field with what this version expects there.
    public var droppedSettings: [StateProblem] = []

    /// What the simulation needs beside the file: the configuration's catalog, settings and limits.
    public struct Context: Sendable {
        public var catalog: DeviceCatalog
        public var transitions: TransitionSettings
        public var windowedLimit: Int
        public var limits: Limits

        public init(catalog: DeviceCatalog, transitions: TransitionSettings = .init(),
                    windowedLimit: Int = Simulation.defaultWindowedLimit, limits: Limits = Limits()) {
            self.catalog = catalog
            self.transitions = transitions
            self.windowedLimit = windowedLimit
            self.limits = limits
        }
    }

    /// Why a state file was refused: every field that breaks a rule, as `field: what was expected`.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let problems: [StateProblem]
        public init(_ problems: [StateProblem]) { self.problems = problems }
        public var description: String { problems.map(\.description).joined(separator: "; ") }
    }

    /// The state in a state file's bytes, checked whole; throws `Refusal` naming each field that fails.
    public static func make(from data: Data, _ context: Context) throws(Refusal) -> RestoredState {
        let saved: SavedState
        let dropped = DroppedSettings()
        do {
            saved = try StateStore.decode(data, dropped: dropped)
        } catch {
            throw Refusal([StateStore.problem(decoding: error)])
        }
        var restored = try make(from: saved, context)
        restored.droppedSettings = dropped.fields.map { StateProblem($0.field, $0.expected) }
        return restored
    }

    /// The same for a state already decoded.
    public static func make(from saved: SavedState, _ context: Context) throws(Refusal) -> RestoredState {
        let simulation: Simulation
        do {
            simulation = try Simulation(catalog: context.catalog, state: saved.display, settings: context.transitions,
                                        windowedLimit: context.windowedLimit)
        } catch {
            if case .invalidState(let problems) = error {
                throw Refusal(problems.map { StateProblem("display." + $0.field, $0.expected) })
            }
            throw Refusal([StateProblem("display", error.message)])
        }
        let states: [String: [String: DBusValue]]
        do {
            states = try saved.restorationStates()
        } catch {
            throw Refusal([StateProblem("restoration", "\(error)")])
        }
        let admitted = PublishBudget(limits: context.limits).admit(restoration: states)
        return RestoredState(simulation: simulation, restoration: admitted.kept, dropped: admitted.dropped)
    }
}
