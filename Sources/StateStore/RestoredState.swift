import DBus
import FoundationEssentials
import Limits
import TraitModel
import Vocabulary

/// What traitd starts from when its state file loads: the simulation and the restoration states it may
/// publish. Made in one place from the file's bytes (`make(from:_:)`), which the daemon's start and the fuzz
/// target both call: parse, check every field against the rules the commands keep, and only then hold it.
///
/// A file breaks a rule only if something other than traitd wrote it (every state the commands reach passes,
/// and reloads equal: `StateReloadTests`), so a file that fails is refused whole and moved aside for its
/// owner to read, rather than guessed at: traitd starts from the configuration. Restoration states are the
/// exception: each is an app's own value, checked on its own against the limits of `SetRestorationState`,
/// and one past them is dropped, named, while the rest loads (a limit lowered in the configuration must not
/// cost every app its state).
public struct RestoredState: Sendable {
    public var simulation: Simulation
    public var restoration: [String: [String: DBusValue]]
    /// The restoration states dropped for the limits, with why.
    public var dropped: [(app: String, reason: String)]

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
        do {
            saved = try StateStore.decode(data)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal([StateStore.problem(decoding: error)])
        }
        return try make(from: saved, context)
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
