import DBus

/// `org.a11y.Bus` on the apps' session bus, as at-spi2-core's launcher serves it on a desktop: where the
/// accessibility bus is (`GetAddress`) and that accessibility is on (`org.a11y.Status`).
///
/// Why the host serves it: Qt 6 (6.4, Debian 12) finds the accessibility bus only this way. Given
/// `AT_SPI_BUS_ADDRESS`, its `DBusConnection` connects from its constructor and announces it before the bridge
/// listens, so the app never registers (qt6ct never appeared); from this service the address comes in a reply,
/// after the bridge listens. GTK 3 and 4 and Qt 5 find the bus this way too. The host serves it only where the
/// name is free (a private bus: tests, `traitctl run`); on a desktop's own session bus, where at-spi2-core holds
/// it, apps are told the address in `AT_SPI_BUS_ADDRESS` as before, and Qt 6 apps cannot be read.
struct AccessibilityBusService {
    static let name = "org.a11y.Bus"
    static let path = "/org/a11y/bus"

    static let bus = InterfaceDescription(
        name: "org.a11y.Bus", methods: [.init("GetAddress", out: [.init("address", "s")])])
    static let status = InterfaceDescription(
        name: "org.a11y.Status",
        properties: [.init("IsEnabled", "b", writable: true), .init("ScreenReaderEnabled", "b", writable: true)])

    /// Exports the two interfaces on `connection` (on its thread) and returns the server, which must be kept.
    static func export(on connection: Connection, address: String) -> ObjectServer {
        let server = ObjectServer(connection: connection, managerPath: path)
        server.export(path, [
            ObjectServer.Interface(bus, methods: [.init("GetAddress") { _ in [.string(address)] }], properties: { [:] }),
            // Writable as at-spi2-core's are (an AT turns them on), but always on here: the bridge is the AT.
            ObjectServer.Interface(status, methods: [], properties: { ["IsEnabled": .boolean(true), "ScreenReaderEnabled": .boolean(true)] },
                                   setProperty: { _, _, _ in }),
        ])
        return server
    }
}
