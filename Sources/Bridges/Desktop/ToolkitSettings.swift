import Vocabulary

/// The display-wide settings as the desktop bridge's apps hear them: XSETTINGS, the X11 desktop's own channel
/// (what GNOME's settings daemon publishes), served on the host's display by `xsettingsd`
/// (`DesktopSession.apply`). GTK 3 and 4 read every setting below from it and re-read it whenever it changes, so a
/// running app's text grows at once; Qt 5 would read its DPI from it too (pinned: `DesktopSession.environment`).
/// (traitd's portal reaches libadwaita's dark mode and contrast, but GTK takes its text size on X11 from XSETTINGS
/// alone.)
///
/// - text size: `Xft/DPI` (and `Gdk/UnscaledDPI`), 96 dpi times the text's scale (the body size over the
///   default's, 17 pt at `large`), in 1/1024 dpi. Not times GDK_SCALE, as GNOME's settings daemon writes it for a
///   scaled screen: with GDK_SCALE fixed, GTK 3 and 4 take the value as it is, and twice 96 drew every app's
///   text twice as large (measured: GTK 3's widget factory's header 46 pt tall at 96 dpi, as with no XSETTINGS
///   at all, 54 at 192 and 85 at 384; GNOME Calculator's keypad labels 40, 42 and 82);
/// - appearance and contrast: the theme (`Net/ThemeName`): Adwaita, Adwaita-dark, HighContrast or
///   HighContrastInverse (GTK's built-in themes), for apps without libadwaita;
/// - animations off (`Gtk/EnableAnimations`): the bridge reads the end of a layout, not its motion.
///
/// Qt apps hear the same settings through a platform theme's file (`qtConfiguration`, `QtTheme`).
struct ToolkitSettings: Equatable, Sendable {
    /// The text's scale (1 at `large`).
    var textScale: Double
    var dark: Bool
    var highContrast: Bool

    init(_ traits: DisplayTraits) {
        textScale = traits.contentSize.scale
        dark = traits.isDark
        highContrast = traits.isHighContrast
    }

    var theme: String {
        switch (dark, highContrast) {
        case (false, false): "Adwaita"
        case (true, false): "Adwaita-dark"
        case (false, true): "HighContrast"
        case (true, true): "HighContrastInverse"
        }
    }

    /// Qt's default font size in points (Qt's generic Unix theme's), at the text size `large`.
    static let qtFontSize = 9.0

    /// The configuration `theme` (qt5ct or qt6ct) reads: fonts at Qt's default size times the text's scale, the
    /// theme's `darker` colours in dark mode, Qt's Fusion style, GTK's icons (`QtTheme`).
    func qtConfiguration(_ theme: QtTheme) -> String {
        let size = (Self.qtFontSize * textScale * 10).rounded() / 10
        let points = size == size.rounded() ? String(Int(size)) : String(size)
        return """
            [Appearance]
            custom_palette=\(dark)
            color_scheme_path=\(theme.colourSchemes)/darker.conf
            style=Fusion
            icon_theme=Adwaita

            [Fonts]
            general="Sans Serif,\(points),-1,5,50,0,0,0,0,0"
            fixed="Monospace,\(points),-1,5,50,0,0,0,0,0"

            """
    }

    /// xsettingsd's configuration: one `Name value` a line, strings quoted.
    var configuration: String {
        let dpi = Int((96 * 1024 * textScale).rounded())
        return """
            Xft/DPI \(dpi)
            Gdk/UnscaledDPI \(dpi)
            Net/ThemeName "\(theme)"
            Gtk/EnableAnimations 0

            """
    }
}
