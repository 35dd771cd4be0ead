import DBus

/// The display as `GetState` returns it.
public struct DisplaySnapshot: Sendable, Codable, Equatable {
    public var serial: UInt64
    public var device: String
    public var orientation: String
    public var screenSize: [Double]
    public var scale: Double
    public var arrangement: String
    /// The divider's left edge in points; 0 when there is no split.
    public var dividerPosition: Double
    public var dragging: Bool
    /// Apps the divider dismissed, oldest first.
    public var backgroundApps: [String]
    public var windows: [WindowSnapshot]

    init(serial: UInt64, display: [String: DBusValue], windows: [WindowSnapshot]) {
        self.serial = serial
        device = display["Device"]?.string ?? ""
        orientation = display["Orientation"]?.string ?? ""
        screenSize = display["ScreenSize"]?.doubles ?? []
        scale = display["Scale"]?.double ?? 0
        arrangement = display["Arrangement"]?.string ?? ""
        dividerPosition = display["DividerPosition"]?.double ?? 0
        dragging = display["Dragging"]?.bool ?? false
        backgroundApps = display["BackgroundApps"]?.strings ?? []
        self.windows = windows
    }

    public func window(_ app: String) -> WindowSnapshot? { windows.first { $0.app == app } }
}

/// One window as `GetState` returns it.
public struct WindowSnapshot: Sendable, Codable, Equatable {
    public var path: String
    public var app: String
    public var role: String
    /// x, y, width, height in screen points.
    public var frame: [Double]
    /// top, left, bottom, right in points, inside the frame (`SafeAreaInsets`).
    public var safeAreaInsets: [Double]
    public var horizontalSizeClass: String
    public var verticalSizeClass: String
    public var state: String
    public var idiom: String
    public var displayScale: Double
    /// Adapters registered for this window.
    public var adapters: [String]
    /// adapter -> element -> [x, y, width, height] in window coordinates, from each adapter's latest report.
    public var layouts: [String: [String: [Double]]]

    init(path: String, properties p: [String: DBusValue]) {
        self.path = path
        app = p["App"]?.string ?? ""
        role = p["Role"]?.string ?? ""
        frame = p["Frame"]?.doubles ?? []
        safeAreaInsets = p["SafeAreaInsets"]?.doubles ?? []
        horizontalSizeClass = p["HorizontalSizeClass"]?.string ?? ""
        verticalSizeClass = p["VerticalSizeClass"]?.string ?? ""
        state = p["State"]?.string ?? ""
        let traits = p["Traits"]?.dictionary ?? [:]
        idiom = traits["idiom"]?.string ?? ""
        displayScale = traits["displayScale"]?.double ?? 0
        adapters = p["Adapters"]?.strings ?? []
        layouts = (p["Layouts"]?.dictionary ?? [:]).mapValues { ($0.dictionary ?? [:]).mapValues { $0.doubles ?? [] } }
    }
}
