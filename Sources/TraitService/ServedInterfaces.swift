/// The interfaces the service serves beside the display's and the windows'.
struct ServedInterfaces: OptionSet {
    let rawValue: Int
    /// `org.traitd.Layout1.Testing` (`--testing`, `--clock virtual`).
    static let testing = ServedInterfaces(rawValue: 1 << 0)
    /// `org.freedesktop.portal.Settings` (`--portal`): settings changes announce `SettingChanged` too.
    static let portal = ServedInterfaces(rawValue: 1 << 1)
}
