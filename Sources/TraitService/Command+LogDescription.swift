import TraitModel
import Vocabulary

/// A command as the log shows it: the method call that caused it.
extension Command {
    var logDescription: String {
        switch self {
        case .setDevice(let id): return "SetDevice(\(id))"
        case .rotate(let o): return "Rotate(\(o.rawValue))"
        case .setArrangement(let a): return "SetArrangement(\(a.rawValue))"
        case .openApp(let app, let role): return "OpenApp(\(app), \(role.rawValue))"
        case .closeApp(let app): return "CloseApp(\(app))"
        case .beginDividerDrag: return "BeginDividerDrag()"
        case .moveDivider(let x): return "MoveDivider(\(x.compact))"
        case .endDividerDrag: return "EndDividerDrag()"
        case .setTraits(let changes):
            return "SetTraits(" + DisplayTrait.all.compactMap { trait in changes[trait].map { "\(trait.property)=\($0)" } }
                .joined(separator: ", ") + ")"
        case .setWindowing(let mode): return "SetWindowing(\(mode))"
        case .setFrame(let app, let frame): return "SetFrame(\(app), \(frame))"
        case .tile(let app, let position): return "Tile(\(app), \(position))"
        case .raise(let app): return "Raise(\(app))"
        case .beginResize(let app): return "BeginResize(\(app))"
        case .resizeTo(let app, let size): return "ResizeTo(\(app), \(size))"
        case .endResize(let app): return "EndResize(\(app))"
        case .connectDisplay(let profile): return "ConnectDisplay(\(profile))"
        case .disconnectDisplay(let id): return "DisconnectDisplay(\(id))"
        case .moveToDisplay(let app, let display): return "MoveToDisplay(\(app), \(display))"
        case .setKeyboard(let mode): return "SetKeyboard(\(mode))"
        case .setSizeRestrictions(let app, let r): return "SetSizeRestrictions(\(app), \(r))"
        case .setSupportedOrientations(let app, let o): return "SetSupportedOrientations(\(app), \(o.map(\.rawValue).joined(separator: " ")))"
        case .requestGeometryUpdate(let app, let r): return "RequestGeometryUpdate(\(app), \(r))"
        case .restore(let state): return "Restore(\(state.device) \(state.orientation), apps: \(state.apps.map(\.name).joined(separator: ", ")))"
        }
    }
}
