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

/// How an app is read follows from its toolkit, learnt once from `ToolkitName` and `Version`.
@Suite struct ToolkitTests {
    @Test func eachToolkitIsReadItsOwnWay() {
        let gtk4 = Toolkit(name: "GTK", version: "4.8.3"), gtk3 = Toolkit(name: "GTK", version: "3.24.38")
        let qt = Toolkit(name: "Qt", version: "5.15.8"), unknown = Toolkit()
        #expect(gtk4.contentBoxes && !gtk3.contentBoxes && !qt.contentBoxes)
        #expect(gtk4.drawnStates == 1 << 30 && gtk3.drawnStates == 1 << 30 | 1 << 25 && qt.drawnStates == gtk3.drawnStates)
        #expect(unknown.drawnStates == 1 << 30 && !unknown.screenCoordinates && !unknown.followsSettings)
        #expect(qt.screenCoordinates && !gtk4.screenCoordinates)
        #expect(gtk3.followsSettings && gtk4.followsSettings && !qt.followsSettings)
    }
}

/// Qt apps hear the settings through a platform theme chosen by the Qt their executable links (Debian's KCalc
/// links Qt 5, qt6ct Qt 6; GNOME's calculator and a shell link neither), and its file holds the text size as
/// Qt's 9-pt default times the text's scale and dark mode as the theme's `darker` colours.
@Suite struct QtThemeTests {
    @Test func theThemeFollowsTheQtTheExecutableLinks() {
        #expect(QtTheme.forCommand("kcalc") == .qt5 && QtTheme.forCommand("/usr/bin/qt6ct") == .qt6)
        #expect(QtTheme.forCommand("gnome-calculator") == nil && QtTheme.forCommand("sh") == nil)
        #expect(QtTheme.forCommand("no-such-program") == nil && QtTheme.forCommand("/nowhere/kcalc") == nil)
        #expect(QtTheme.locate("kcalc", path: "/nowhere:/usr/bin") == "/usr/bin/kcalc" && QtTheme.locate("kcalc", path: "/nowhere") == nil)
    }

    @Test func theTextSizeAndDarkModeAsTheThemeReadsThem() {
        var traits = DisplayTraits()
        #expect(ToolkitSettings(traits).qtConfiguration(.qt5) == """
            [Appearance]
            custom_palette=false
            color_scheme_path=/usr/share/qt5ct/colors/darker.conf
            style=Fusion
            icon_theme=Adwaita

            [Fonts]
            general="Sans Serif,9,-1,5,50,0,0,0,0,0"
            fixed="Monospace,9,-1,5,50,0,0,0,0,0"

            """)
        traits[.contentSize] = "accessibility-extra-extra-extra-large"
        traits[.appearance] = "dark"
        let file = ToolkitSettings(traits).qtConfiguration(.qt6)
        #expect(file.contains("custom_palette=true\ncolor_scheme_path=/usr/share/qt6ct/colors/darker.conf\n"), "\(file)")
        #expect(file.contains("general=\"Sans Serif,28.1,"), "\(file)")
    }
}
