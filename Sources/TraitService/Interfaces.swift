import DBus

/// The public D-Bus contract (DESIGN.md section 4). Names here are fixed: scripts and tests depend on them.
/// `Config/dbus-1/org.traitd.Layout1.xml` is generated from these declarations (`traitd --print-introspection`)
/// and a test keeps the two equal.
public enum Layout1 {
    public static let busName = "org.traitd.Layout1"
    public static let rootPath = "/org/traitd/Layout1"
    public static let windowPathPrefix = "/org/traitd/Layout1/window/"
    public static let displayInterface = "org.traitd.Layout1.Display"
    public static let windowInterface = "org.traitd.Layout1.Window"

    /// `/org/traitd/Layout1/window/<app>`, the app name escaped into a valid path element (`-` is `_2d`).
    public static func windowPath(_ app: String) -> String { windowPathPrefix + Validation.escapePathElement(app) }

    /// Domain refusals, `org.traitd.Layout1.Error.*`.
    public enum Error {
        public static let notOffered = "org.traitd.Layout1.Error.NotOffered"
        public static let noSuchApp = "org.traitd.Layout1.Error.NoSuchApp"
        public static let appExists = "org.traitd.Layout1.Error.AppExists"
        public static let roleTaken = "org.traitd.Layout1.Error.RoleTaken"
        public static let missingApp = "org.traitd.Layout1.Error.MissingApp"
        public static let notDragging = "org.traitd.Layout1.Error.NotDragging"
        public static let dragging = "org.traitd.Layout1.Error.Dragging"
        public static let noDivider = "org.traitd.Layout1.Error.NoDivider"
        public static let staleTransition = "org.traitd.Layout1.Error.StaleTransition"
        public static let alreadyReported = "org.traitd.Layout1.Error.AlreadyReported"
        public static let noSuchAdapter = "org.traitd.Layout1.Error.NoSuchAdapter"
        public static let adapterExists = "org.traitd.Layout1.Error.AdapterExists"
        public static let limitExceeded = "org.traitd.Layout1.Error.LimitExceeded"
    }

    typealias Arg = InterfaceDescription.Argument

    public static let display = InterfaceDescription(
        name: displayInterface,
        methods: [
            .init("SetDevice", in: [Arg("device", "s")]),
            .init("Rotate", in: [Arg("orientation", "s")]),
            .init("SetArrangement", in: [Arg("arrangement", "s")]),
            .init("OpenApp", in: [Arg("app", "s"), Arg("role", "s")], out: [Arg("window", "o")]),
            .init("CloseApp", in: [Arg("app", "s")]),
            .init("ListDevices", out: [Arg("devices", "as")]),
            .init("GetState", out: [Arg("serial", "t"), Arg("display", "a{sv}"), Arg("windows", "a(oa{sv})")]),
            .init("BeginDividerDrag"),
            .init("MoveDivider", in: [Arg("x", "d")]),
            .init("EndDividerDrag"),
            .init("RegisterAdapter", in: [Arg("app", "s"), Arg("adapter", "s")]),
            .init("UnregisterAdapter", in: [Arg("app", "s"), Arg("adapter", "s")]),
            .init("ListAdapters", out: [Arg("adapters", "a(sss)")]),
            .init("GetRestorationState", in: [Arg("app", "s")], out: [Arg("state", "a{sv}")]),
        ],
        properties: [
            .init("Device", "s"), .init("Orientation", "s"), .init("ScreenSize", "(dd)"), .init("Scale", "d"),
            .init("Arrangement", "s"), .init("Windows", "ao"), .init("Serial", "t"), .init("DividerPosition", "d"),
            .init("Dragging", "b"), .init("BackgroundApps", "as"),
        ])

    public static let window = InterfaceDescription(
        name: windowInterface,
        methods: [
            .init("ReportLayout", in: [
                Arg("transition", "t"), Arg("adapter", "s"), Arg("frames", "a{s(dddd)}"), Arg("extras", "a{sv}"),
            ]),
            .init("SetRestorationState", in: [Arg("state", "a{sv}")]),
        ],
        signals: [
            .init("WillTransitionToTraitCollection", [Arg("transition", "t"), Arg("new_traits", "a{sv}")]),
            .init("ViewWillTransitionToSize",
                  [Arg("transition", "t"), Arg("width", "d"), Arg("height", "d"), Arg("context", "a{sv}")]),
            .init("TraitCollectionDidChange", [Arg("transition", "t"), Arg("previous_traits", "a{sv}")]),
            .init("ViewSafeAreaInsetsDidChange", [Arg("transition", "t"), Arg("insets", "(dddd)")]),
            .init("TransitionCompleted",
                  [Arg("transition", "t"), Arg("reported", "as"), Arg("missed", "as"), Arg("failed", "as")]),
            .init("WillResignActive"), .init("DidBecomeActive"), .init("DidEnterBackground"),
            .init("WillEnterForeground"),
        ],
        properties: [
            .init("App", "s"), .init("Role", "s"), .init("Frame", "(dddd)"), .init("HorizontalSizeClass", "s"),
            .init("VerticalSizeClass", "s"), .init("Traits", "a{sv}"), .init("State", "s"), .init("SafeAreaInsets", "(dddd)"), .init("Adapters", "as"),
            .init("Layouts", "a{sa{s(dddd)}}"), .init("LayoutExtras", "a{sa{sv}}"), .init("RestorationState", "a{sv}"),
        ])

    /// The interface file installed to `/usr/share/dbus-1/interfaces/` and kept in `Config/dbus-1/`.
    public static var interfaceXML: String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <!-- traitd's D-Bus interfaces, as traitd prints them with its print-introspection option (make introspection); do not edit by hand. -->
        <node>

        """ + display.introspectionXML() + window.introspectionXML() + "</node>\n"
    }
}
