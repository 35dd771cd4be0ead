@testable import Bridges
import Testing
import Vocabulary

/// The display's settings as XSETTINGS: 96 dpi of text at `large` is 98304 (96 x 1024; GTK does not divide it by
/// GDK_SCALE); the theme follows dark and Increase Contrast.
@Suite struct ToolkitSettingsTests {
    @Test func theTextSizeAndTheThemeAsXsettingsdReadsThem() {
        var traits = DisplayTraits()
        #expect(ToolkitSettings(traits).configuration == """
            Xft/DPI 98304
            Gdk/UnscaledDPI 98304
            Net/ThemeName "Adwaita"
            Gtk/EnableAnimations 0

            """)
        traits[.contentSize] = "accessibility-extra-extra-extra-large"
        traits[.appearance] = "dark"
        let large = ToolkitSettings(traits)
        #expect(large.textScale == 53.0 / 17 && large.theme == "Adwaita-dark")
        #expect(large.configuration.hasPrefix("Xft/DPI \(Int((98304 * 53.0 / 17).rounded()))\n"))
        traits[.contrast] = "high"
        #expect(ToolkitSettings(traits).theme == "HighContrastInverse")
        traits[.appearance] = "light"
        #expect(ToolkitSettings(traits).theme == "HighContrast")
    }
}
