import DBus
import TraitModel
import TraitProtocol

/// The external displays' objects: `/org/traitd/Layout1/display/<id>`, exported when a display connects (then
/// `DisplayConnected`), their `Windows` kept current, and gone when it disconnects (after `DisplayDisconnected`).
extension DisplayService {
    /// Each connected display's windows, front to back (what its `Windows` property says).
    var externalDisplayWindows: [String: [String]] {
        let state = simulation.state
        return Dictionary(uniqueKeysWithValues: state.displays.map { display in
            (display.id, state.stacking.filter { state.display(of: $0) == display.id })
        })
    }

    func exportExternalDisplay(_ display: ConnectedDisplay) {
        server.export(Layout1.externalDisplayPath(display.id), [
            ObjectServer.Interface(
                Layout1.ExternalDisplay.interface, methods: [],
                properties: reading { $0.externalDisplayProperties(display.id) }),
        ])
    }

    func externalDisplayProperties(_ id: String) -> [String: DBusValue] {
        typealias E = Layout1.ExternalDisplay
        guard let display = simulation.state.displays.first(where: { $0.id == id }),
              let screen = try? ExternalScreen.named(display.profile) else { return [:] }
        return Dictionary(uniqueKeysWithValues: [
            E.profile.entry(display.profile), E.screenSize.entry(screen.size), E.scale.entry(screen.scale),
            E.windows.entry((externalDisplayWindows[id] ?? []).map(Layout1.windowPath)),
        ])
    }

    /// Before a command's transitions: `DisplayDisconnected` for each display it unplugged, as UIKit posts
    /// `UIScreen.didDisconnectNotification` before the scenes on it move.
    func announceDisconnections(from before: [String: [String]]) {
        let now = Set(simulation.state.displays.map(\.id))
        for id in before.keys.sorted() where !now.contains(id) {
            announceDisplaySignal(Layout1.Display.displayDisconnected, id)
        }
    }

    /// After a command's transitions: the objects of the displays that went go, those that came appear (then
    /// `DisplayConnected`), and `PropertiesChanged` of `Windows` for those whose windows changed.
    func announceExternalDisplays(from before: [String: [String]]) {
        let now = externalDisplayWindows
        for (id, _) in before where now[id] == nil { server.unexport(Layout1.externalDisplayPath(id)) }
        for display in simulation.state.displays where before[display.id] == nil {
            exportExternalDisplay(display)
            announceDisplaySignal(Layout1.Display.displayConnected, display.id)
        }
        for (id, windows) in now where before[id].map({ $0 != windows }) ?? false {
            server.propertiesChanged(
                path: Layout1.externalDisplayPath(id), interface: Layout1.externalDisplayInterface,
                [Layout1.ExternalDisplay.windows.name: Layout1.ExternalDisplay.windows.value.encode(windows.map(Layout1.windowPath))])
        }
    }

    private func announceDisplaySignal(_ signal: SignalDeclaration<String>, _ id: String) {
        do {
            try connection.emit(path: Layout1.rootPath, interface: Layout1.displayInterface, member: signal.name,
                                signal.arguments(id))
        } catch {
            server.sendFailed("\(signal.name) for \(id)", error)
        }
    }
}
