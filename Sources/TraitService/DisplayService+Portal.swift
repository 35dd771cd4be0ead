import DBus
import TraitModel
import TraitProtocol
import Vocabulary

/// `traitd --portal`: `org.freedesktop.portal.Settings` served from the simulated settings
/// (`PortalSettings`), so that a GTK or libadwaita app under test follows the simulated appearance, contrast,
/// reduced motion and text size as it would the real desktop's. Never by default: on a real session that name
/// belongs to xdg-desktop-portal.
extension DisplayService {
    /// Exports the portal's settings object (the daemon takes the name after).
    func exportPortal() {
        typealias P = PortalSettings
        server.export(P.path, [
            ObjectServer.Interface(P.interface, methods: [
                on(P.readAll) { service, _, namespaces in
                    let served = P.settings(service.simulation.state.traits).filter { P.matches($0.key, namespaces) }
                    return .array(element: "{sa{sv}}", served.keys.sorted().map { .dictEntry(.string($0), .vardict(served[$0]!)) })
                },
                on(P.read) { service, _, names in .variant(.variant(try service.portalValue(names.0, names.1))) },
                on(P.readOne) { service, _, names in .variant(try service.portalValue(names.0, names.1)) },
            ], properties: { [P.versionProperty.name: P.versionProperty.value.encode(P.version)] }),
        ])
        serves.insert(.portal)
    }

    private func portalValue(_ namespace: String, _ key: String) throws -> DBusValue {
        guard let value = PortalSettings.settings(simulation.state.traits)[namespace]?[key] else {
            throw DBusError(PortalSettings.notFound, "Requested setting not found: \(namespace.printable) \(key.printable)")
        }
        return value
    }

    /// `SettingChanged` for each served setting of the display-wide settings that `changed`, with its value in
    /// `traits` (the settings now).
    func announcePortalChanges(_ changed: [DisplayTrait], _ traits: DisplayTraits) {
        guard serves.contains(.portal) else { return }
        let values = PortalSettings.settings(traits)
        // In the portal's order: by namespace, then key.
        let keys = changed.flatMap(PortalSettings.keys(following:)).sorted { ($0.namespace, $0.key) < ($1.namespace, $1.key) }
        for (namespace, key) in keys {
            guard let value = values[namespace]?[key] else { continue }
            let signal = PortalSettings.settingChanged
            do {
                try connection.emit(path: PortalSettings.path, interface: PortalSettings.interfaceName, signal,
                                    (namespace, key, .variant(value)))
            } catch {
                server.sendFailed("SettingChanged \(namespace) \(key)", error)
            }
        }
    }
}
