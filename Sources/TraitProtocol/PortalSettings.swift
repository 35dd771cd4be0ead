import DBus
import Vocabulary

/// `org.freedesktop.portal.Settings`, the desktop's settings as xdg-desktop-portal serves them (and GTK,
/// libadwaita and Qt read them): what `traitd --portal` serves from the simulated settings, and what
/// `traitd --follow-desktop` reads from the session's real portal. Facts: `docs/reference/traits.md`
/// ("The Linux desktop's own settings", from the shared reference's `uikit-transitions.md`).
///
/// The mapping, both ways:
///   - `org.freedesktop.appearance color-scheme` (u): 1 (prefer dark) is `appearance dark`; 2 (prefer light) is
///     `light`; traitd serves 2 for light. Read, 0 (no preference) is `light` too (libadwaita shows light then).
///   - `org.freedesktop.appearance contrast` (u): 1 (higher) is `contrast high`, 0 `normal`.
///   - `org.freedesktop.appearance reduced-motion` (u): 1 is `reduce-motion on`, 0 `off`.
///   - `org.gnome.desktop.a11y.interface high-contrast` (b): the same as `contrast`, for libadwaita before 1.6
///     (Debian 12's 1.2 reads this key through the portal's `Read`, not `contrast`: its adw-settings.c).
///   - `org.gnome.desktop.interface text-scaling-factor` (d): the body text size over the default's (17 pt at
///     `large`), so `large` is 1.0, `accessibility-large` 33/17 = 1.94; read, the category whose factor is
///     nearest (GNOME's 0.5 to 3.0 range maps onto extra-small to accessibility-extra-extra-extra-large).
public enum PortalSettings {
    public static let busName = "org.freedesktop.portal.Desktop"
    public static let path = "/org/freedesktop/portal/desktop"
    public static let interfaceName = "org.freedesktop.portal.Settings"
    /// The interface version served: 2 has `ReadOne`.
    public static let version: UInt32 = 2

    public static let appearance = "org.freedesktop.appearance"
    public static let gnomeInterface = "org.gnome.desktop.interface"
    public static let gnomeAccessibility = "org.gnome.desktop.a11y.interface"

    /// Returned for a namespace or key not served, as xdg-desktop-portal does.
    public static let notFound = "org.freedesktop.portal.Error.NotFound"

    // MARK: The contract

    public static let readAll = Declare.method(
        "ReadAll", .strings("namespaces"),
        doc: "Every setting of the namespaces given (each may end in *; none: all), as namespace -> key -> value.")
        .returning(.value("value", "a{sa{sv}}"))
    public static let read = Declare.method(
        "Read", .string("namespace"), .string("key"),
        doc: "Deprecated: one setting, its value wrapped in a second variant (as version 1 did).")
        .returning(.value("value", "v"))
    public static let readOne = Declare.method(
        "ReadOne", .string("namespace"), .string("key"), doc: "One setting.")
        .returning(.value("value", "v"))
    public static let settingChanged = Declare.signal(
        "SettingChanged", .string("namespace"), .string("key"), .value("value", "v"), doc: "A setting changed.")
    public static let versionProperty = Declare.property(.uint32("version"), doc: "The interface version, 2.")

    public static let interface = InterfaceDescription(
        name: interfaceName,
        methods: [readAll.description, read.description, readOne.description],
        signals: [settingChanged.description],
        properties: [versionProperty.description],
        doc: "The desktop's settings, served by traitd --portal from the simulated display's settings.")

    // MARK: The mapping

    /// Every setting served, from the simulated settings: namespace -> key -> value.
    public static func settings(_ traits: DisplayTraits) -> [String: [String: DBusValue]] {
        [
            appearance: [
                "color-scheme": .uint32(traits.isDark ? 1 : 2),
                "contrast": .uint32(traits.isHighContrast ? 1 : 0),
                "reduced-motion": .uint32(traits.reducesMotion ? 1 : 0),
            ],
            gnomeInterface: ["text-scaling-factor": .double(traits.contentSize.scale)],
            gnomeAccessibility: ["high-contrast": .boolean(traits.isHighContrast)],
        ]
    }

    /// The portal settings (namespace, key) that follow `trait`, in the order `settings` lists them: what a
    /// change of the trait changes (`SettingChanged`).
    public static func keys(following trait: DisplayTrait) -> [(namespace: String, key: String)] {
        switch trait {
        case .appearance: return [(appearance, "color-scheme")]
        case .contrast: return [(appearance, "contrast"), (gnomeAccessibility, "high-contrast")]
        case .reduceMotion: return [(appearance, "reduced-motion")]
        case .contentSize: return [(gnomeInterface, "text-scaling-factor")]
        default: return []
        }
    }

    /// The setting a portal value says, or nil for a key traitd does not follow (`accent-color`) or a value of
    /// another type.
    public static func trait(namespace: String, key: String, value: DBusValue) -> (DisplayTrait, String)? {
        switch (namespace, key, value.unwrapped) {
        case (appearance, "color-scheme", .uint32(let v)): return (.appearance, v == 1 ? "dark" : "light")
        case (appearance, "contrast", .uint32(let v)): return (.contrast, v == 1 ? "high" : "normal")
        case (appearance, "reduced-motion", .uint32(let v)): return (.reduceMotion, v == 1 ? "on" : "off")
        case (gnomeAccessibility, "high-contrast", .boolean(let b)): return (.contrast, b ? "high" : "normal")
        case (gnomeInterface, "text-scaling-factor", .double(let factor)) where factor.isFinite:
            let nearest = ContentSizeCategory.allCases.min { abs($0.scale - factor) < abs($1.scale - factor) }!
            return (.contentSize, nearest.rawValue)
        default: return nil
        }
    }

    /// Whether `namespace` is asked for by `patterns` (`ReadAll`'s: exact, or a prefix ending in `*`; none asks
    /// for all).
    public static func matches(_ namespace: String, _ patterns: [String]) -> Bool {
        patterns.isEmpty || patterns.contains { pattern in
            pattern.hasSuffix("*") ? namespace.hasPrefix(pattern.dropLast()) : namespace == pattern
        }
    }
}
