import Vocabulary

/// Why the simulation refused a command. The D-Bus layer maps each case to a named error.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A malformed or unknown value (`org.freedesktop.DBus.Error.InvalidArgs`).
    case invalidArgument(String)
    /// The arrangement is not offered by this device in this orientation (`...Error.NotOffered`).
    case notOffered(String)
    /// No app of that name is open (`...Error.NoSuchApp`).
    case noSuchApp(String)
    /// An app of that name is already open (`...Error.AppExists`).
    case appExists(String)
    /// Another app holds the role (`...Error.RoleTaken`).
    case roleTaken(String)
    /// The command needs an app that is not there, such as a split with no secondary app (`...Error.MissingApp`).
    case missingApp(String)
    /// A divider call out of order: moving or ending when no drag is in progress (`...Error.NotDragging`).
    case notDragging(String)
    /// A command that cannot run while the divider is being dragged, or a second `BeginDividerDrag`
    /// (`...Error.Dragging`).
    case dragging(String)
    /// A divider drag with no divider on screen: the arrangement is not a split (`...Error.NoDivider`).
    case noDivider(String)
    /// A free-form window's frame outside what the screen and the minimum size allow (`...Error.OutOfRange`).
    case outOfRange(String)
    /// A geometry request that does not apply to the window now (UISceneError 100, geometryRequestUnsupported).
    case geometryRequestUnsupported(String)
    /// A geometry request none of whose orientations is supported (UISceneError 101, geometryRequestDenied).
    case geometryRequestDenied(String)
    /// A state from a file (the state file, the configuration) that breaks the rules the commands keep
    /// (`Simulation.problems(in:profile:windowedLimit:)`); never the answer to a command.
    case invalidState([StateProblem])

    /// How many of a state's broken rules a message names.
    static let problemsShown = 10

    public var message: String {
        switch self {
        case .invalidState(let problems):
            // The first few, and how many more: a 40,000-item list with one mistake each made a 2.6 MB message.
            let shown = problems.prefix(Self.problemsShown).map(\.description).joined(separator: "; ")
            return problems.count > Self.problemsShown ? shown + "; and \(problems.count - Self.problemsShown) more" : shown
        case .invalidArgument(let m), .notOffered(let m), .noSuchApp(let m), .appExists(let m), .roleTaken(let m),
            .missingApp(let m), .notDragging(let m), .dragging(let m), .noDivider(let m), .outOfRange(let m),
            .geometryRequestUnsupported(let m), .geometryRequestDenied(let m):
            return m
        }
    }

    public var description: String { message }
}
