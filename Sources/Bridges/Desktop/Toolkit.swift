/// What an app's toolkit means for reading it, learnt once from its `ToolkitName` and `Version`
/// (`AccessibilityReader.learnToolkit`); every rule below follows from the toolkit, so it is stored once.
struct Toolkit: Sendable, Equatable {
    enum Family: Sendable, Equatable {
        /// Not learnt yet (the app has not registered).
        case unknown
        case gtk3, gtk4, qt
        /// Any other toolkit.
        case other
    }
    var family: Family = .unknown

    init(family: Family = .unknown) { self.family = family }

    /// From `ToolkitName` (`GTK`, `Qt`) and `Version` (`3.24.38`, `4.8.3`).
    init(name: String, version: String) {
        let name = name.lowercased()
        family = name.hasPrefix("qt") ? .qt : name.hasPrefix("gtk") ? (version.hasPrefix("3") ? .gtk3 : .gtk4) : .other
    }

    /// `ATSPI_STATE_VISIBLE`: a widget its toolkit means to show; `ATSPI_STATE_SHOWING`: one that is mapped, on
    /// screen as far as its toolkit knows (a widget squeezed out by a narrow window is still VISIBLE).
    static let visibleBit: UInt32 = 30, showingBit: UInt32 = 25

    /// The state bits a drawn widget has: both where the toolkit sets SHOWING (Qt, GTK 3); GTK 4.8 sets it on the
    /// window alone, so there VISIBLE is all there is (and before the toolkit is known).
    var drawnStates: UInt32 {
        family == .gtk4 || family == .unknown ? 1 << Self.visibleBit : 1 << Self.visibleBit | 1 << Self.showingBit
    }

    /// Whether extents are asked for in screen coordinates (then made the window's): Qt 5 answers window
    /// coordinates wrongly (its y is the x, and the size shrinks by the window's offset: `getRelativeRect` in its
    /// AT-SPI adaptor), while its screen coordinates are right, and so are Qt 6's. GTK 4 knows no screen position
    /// on X11, so GTK apps are asked for window coordinates.
    var screenCoordinates: Bool { family == .qt }

    /// Whether extents are content boxes (GTK 4: a widget's extents without its padding and border, so a button is
    /// reported the size of its label).
    var contentBoxes: Bool { family == .gtk4 }

    /// Whether the app follows the session's text size through XSETTINGS as it changes (GTK 3 and 4; a Qt app's
    /// DPI is pinned at 96, `DesktopSession.environment`, and it follows the text size through its platform theme
    /// instead, `QtTheme`, where it has one).
    var followsSettings: Bool { family == .gtk3 || family == .gtk4 }
}
