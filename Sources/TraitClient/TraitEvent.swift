import DBus
import TraitProtocol

/// A signal from the daemon, with the window it concerns and its arguments read.
public struct TraitEvent: Sendable, CustomStringConvertible {
    /// The unique name of the connection that sent it (the daemon's).
    public let sender: String?
    public let path: String
    public let interface: String
    public let member: String
    public let arguments: [DBusValue]

    init(_ signal: Connection.Signal) {
        sender = signal.sender
        path = signal.path
        interface = signal.interface
        member = signal.member
        arguments = signal.arguments
    }

    /// The app whose window sent it, nil for the display.
    public var app: String? { Self.app(path: path) }

    /// The app whose window has this object path; nil for other paths.
    public static func app(path: String) -> String? { Layout1.app(path: path) }

    /// The transition id of a transition signal.
    public var transitionID: UInt64? {
        guard interface == TraitClient.windowInterface, case .uint64(let id)? = arguments.first else { return nil }
        return id
    }

    /// One readable line, as `traitctl watch` prints it.
    public var description: String {
        let source = app ?? (path == TraitClient.rootPath ? "display" : path)
        let id = transitionID.map { " #\($0)" } ?? ""
        return "\(source) \(member)\(id)\(details.isEmpty ? "" : " " + details)"
    }

    private var details: String {
        switch member {
        case "WillTransitionToTraitCollection", "TraitCollectionDidChange":
            let traits = arguments.count > 1 ? arguments[1].dictionary ?? [:] : [:]
            let label = member == "TraitCollectionDidChange" ? "previous " : ""
            return label + "horizontal=\(traits["horizontalSizeClass"]?.string ?? "?") vertical=\(traits["verticalSizeClass"]?.string ?? "?")"
        case "ViewWillTransitionToSize":
            guard arguments.count == 4, let w = arguments[1].double, let h = arguments[2].double else { return "" }
            let context = arguments[3].dictionary ?? [:]
            return "\(format(w))x\(format(h)) reason=\(context["reason"]?.string ?? "?") "
                + "orientation=\(context["orientation"]?.string ?? "?") duration=\(format(context["duration"]?.double ?? 0))s"
        case "ViewSafeAreaInsetsDidChange":
            guard arguments.count == 2, let insets = arguments[1].doubles, insets.count == 4 else { return "" }
            return "top=\(format(insets[0])) left=\(format(insets[1])) bottom=\(format(insets[2])) right=\(format(insets[3]))"
        case "TransitionCompleted":
            let lists = arguments.dropFirst().map { "[" + ($0.strings ?? []).joined(separator: ",") + "]" }
            return lists.count == 3 ? "reported=\(lists[0]) missed=\(lists[1]) failed=\(lists[2])" : ""
        case "PropertiesChanged":
            let changed = arguments.count > 1 ? arguments[1].dictionary ?? [:] : [:]
            return changed.keys.sorted().map { "\($0)=\(render(changed[$0]!))" }.joined(separator: " ")
        case "InterfacesAdded", "InterfacesRemoved":
            return arguments.first?.string.map { path in Layout1.app(path: path).map { "window " + $0 } ?? path } ?? ""
        default:
            return arguments.map(render).joined(separator: " ")
        }
    }

    private func render(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .string(let s), .objectPath(let s): return s
        case .double(let d): return format(d)
        case .uint64(let n): return String(n)
        case .boolean(let b): return String(b)
        case .structure(let fields): return "(" + fields.map(render).joined(separator: ",") + ")"
        case .array(_, let items):
            if let dict = value.unwrapped.dictionary {
                return "{" + dict.keys.sorted().map { "\($0)=\(render(dict[$0]!))" }.joined(separator: ",") + "}"
            }
            return "[" + items.map(render).joined(separator: ",") + "]"
        default: return "\(value)"
        }
    }
}

func format(_ d: Double) -> String {
    d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
}
