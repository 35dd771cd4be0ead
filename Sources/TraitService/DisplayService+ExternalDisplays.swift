import DBus
import TraitModel
import TraitProtocol

/// The external displays' objects: `/org/traitd/Layout1/display/<id>`, exported when a display connects (then
/// `DisplayConnected`), their `Windows` kept current, and gone when it disconnects (after `DisplayDisconnected`);
/// the engine's events say when (`DisplayService+Announce`).
extension DisplayService {
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
        return [
            E.profile.entry(display.profile), E.screenSize.entry(screen.size), E.scale.entry(screen.scale),
            E.windows.entry(simulation.state.stage(on: id).map(Layout1.windowPath)),
        ].dictionary
    }

    /// `DisplayConnected` or `DisplayDisconnected` of display `id`, on the display's object.
    func emitDisplaySignal(_ signal: SignalDeclaration<String>, _ id: String) {
        do {
            try connection.emit(path: Layout1.rootPath, interface: Layout1.displayInterface, signal, id)
        } catch {
            server.sendFailed("\(signal.name) for \(id)", error)
        }
    }
}
