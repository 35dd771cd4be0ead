import BusValues
import Limits
import TraitModel

/// Why the core refused an input: a kind, which the shell names on the bus (`Layout1.Error`, at the edge), and a
/// message for a person. A refusal changes nothing.
public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The model refused a command (its own kinds: `NotOffered`, `NoSuchApp`...).
        case model(ModelError)
        case invalidArgs
        case accessDenied
        case noSuchApp
        case noSuchAdapter
        case adapterExists
        case limitExceeded
        case staleTransition
        case alreadyReported
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ error: ModelError) { self.init(.model(error), error.message) }

    public var description: String { message }

    /// Runs `body`, its error as a refusal: the budget's `Exceeded` as `limitExceeded`, a refusal as itself, any
    /// other (a value that does not read: `DBusError.invalidArgs`) as `invalidArgs`, its message kept.
    @inlinable  // called for each element of a report: specialised where it is used
    public static func of<T>(_ body: () throws -> T) throws(Refusal) -> T {
        do {
            return try body()
        } catch let refusal as Refusal {
            throw refusal
        } catch let exceeded as PublishBudget.Exceeded {
            throw Refusal(.limitExceeded, exceeded.message)
        } catch let error as DBusError {
            throw Refusal(.invalidArgs, error.message)
        } catch {
            throw Refusal(.invalidArgs, "\(error)")
        }
    }
}
