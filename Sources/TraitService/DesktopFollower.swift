import DBus
import Logging
import TraitProtocol
import Vocabulary

/// `traitd --follow-desktop`: the simulated settings follow the desktop's. At start it reads the portal's
/// settings (`ReadAll`) on the desktop's bus, then applies each `SettingChanged` as it comes, in order, as a
/// `SetTraits` from "the desktop" (logged like any command). Appearance, contrast, reduced motion and text
/// scale are followed (`PortalSettings.trait`); other settings are ignored.
public final class DesktopFollower: Sendable {
    private let connection: Connection
    private let bus: Connection.Bus
    private let logger: Logger

    /// Connects to the desktop's bus (the session bus, unless another is given).
    public init(bus: Connection.Bus, logger: Logger) throws {
        connection = try Connection(bus: bus)
        self.bus = bus
        self.logger = logger
    }

    /// Subscribes to `SettingChanged`, then reads every setting and applies them; the changes that come after
    /// the read are applied in order. A desktop without a portal is logged, and traitd goes on without it.
    func start(_ service: DisplayService) async {
        let (changes, continuation) = AsyncStream.makeStream(of: (String, String, DBusValue).self)
        let signal = PortalSettings.settingChanged
        do {
            try await connection.subscribe(
                sender: PortalSettings.busName,
                matching: "interface='\(PortalSettings.interfaceName)',member='\(signal.name)'"
            ) { message in
                guard message.interface == PortalSettings.interfaceName, message.member == signal.name,
                      let (namespace, key, value) = try? signal.decode(message.arguments) else { return }
                continuation.yield((namespace, key, value))
            }
            let reply = try await connection.call(
                destination: PortalSettings.busName, path: PortalSettings.path, interface: PortalSettings.interfaceName,
                member: PortalSettings.readAll.name,
                PortalSettings.readAll.arguments([PortalSettings.appearance, PortalSettings.gnomeInterface, PortalSettings.gnomeAccessibility]))
            var found: [DisplayTrait: String] = [:]
            // org.freedesktop.appearance last: its contrast wins over GNOME's older high-contrast key.
            func isAppearance(_ entry: DBusValue) -> Bool {
                if case .dictEntry(.string(let namespace), _) = entry { return namespace == PortalSettings.appearance }
                return false
            }
            let all = reply.first?.elements ?? []
            let entries = all.filter { !isAppearance($0) } + all.filter(isAppearance)
            for case .dictEntry(.string(let namespace), let values) in entries {
                for (key, value) in values.dictionary ?? [:] {
                    if let (trait, setting) = PortalSettings.trait(namespace: namespace, key: key, value: value) {
                        found[trait] = setting
                    }
                }
            }
            logger.info("following the desktop's settings on the \(bus) bus: \(Self.text(found))")
            await service.follow(found, what: "settings at start")
        } catch {
            logger.warning("cannot follow the desktop's settings on the \(bus) bus (\(error)); the simulated settings stay as they are")
            continuation.finish()
        }
        Task {
            for await (namespace, key, value) in changes {
                guard let (trait, setting) = PortalSettings.trait(namespace: namespace, key: key, value: value) else { continue }
                await service.follow([trait: setting], what: "\(namespace) \(key) changed")
            }
        }
    }

    func stop() { connection.close() }

    static func text(_ settings: [DisplayTrait: String]) -> String {
        let known = DisplayTrait.all.filter { settings[$0] != nil }
        return known.isEmpty ? "none" : known.map { "\($0.word) \(settings[$0]!)" }.joined(separator: ", ")
    }
}

extension DisplayService {
    /// Applies settings read from the desktop (`DesktopFollower`), logging what it did.
    func follow(_ settings: [DisplayTrait: String], what: String) {
        guard !settings.isEmpty else { return }
        do {
            let started = try run(.setTraits(settings), member: "SettingChanged", from: "the desktop")
            logger.info("followed the desktop (\(what)): \(DesktopFollower.text(settings)); \(started.count) transition(s)")
        } catch {
            logger.warning("could not follow the desktop (\(what)): \(error)")
        }
    }
}
