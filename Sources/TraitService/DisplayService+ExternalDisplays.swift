import DBus
import TraitModel
import TraitProtocol

/// The external displays' objects: `/org/traitd/Layout1/display/<id>`, exported when a display connects (then
/// `DisplayConnected`), their `Windows` kept current, and gone when it disconnects (after `DisplayDisconnected`);
/// the engine's events say when (`DisplayService+Announce`).
extension DisplayService {
    /// Exports a monitor's object; `windows`, its stage as its event gave it, is what its `InterfacesAdded`
    /// announces (the engine, still running, holds the simulation).
    func exportExternalDisplay(_ display: ConnectedDisplay, windows: [String]? = nil) {
        let announced = windows.map { [Layout1.externalDisplayInterface: Self.externalDisplayProperties(display, windows: $0)] } ?? [:]
        server.export(Layout1.externalDisplayPath(display.id), [
            ObjectServer.Interface(
                Layout1.ExternalDisplay.interface, methods: [],
                properties: reading { $0.externalDisplayProperties(display.id) }),
        ], announcing: announced)
    }

    /// The properties of monitor `id` as the simulation has it now.
    func externalDisplayProperties(_ id: String) -> [String: DBusValue] {
        guard let display = simulation.state.displays.first(where: { $0.id == id }) else { return [:] }
        return Self.externalDisplayProperties(display, windows: simulation.state.stage(on: id))
    }

    static func externalDisplayProperties(_ display: ConnectedDisplay, windows: [String]) -> [String: DBusValue] {
        typealias E = Layout1.ExternalDisplay
        guard let screen = try? ExternalScreen.named(display.profile) else { return [:] }
        return [
            E.profile.entry(display.profile), E.screenSize.entry(screen.size), E.scale.entry(screen.scale),
            E.windows.entry(windows.map(Layout1.windowPath)),
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
