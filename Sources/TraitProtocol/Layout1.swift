import DBus

/// traitd's public D-Bus contract (DESIGN.md section 4), declared once for the daemon and its clients: the
/// bus name, the paths, the interfaces with every method, signal and property (`Layout1.Display`,
/// `Layout1.Window`), and the error names. Names here are fixed: scripts and tests depend on them.
///
/// `Config/dbus-1/org.traitd.Layout1.xml` is generated from these declarations (`traitd --print-introspection`,
/// `make introspection`) and a test keeps the two equal.
public enum Layout1 {
    public static let busName = "org.traitd.Layout1"
    public static let rootPath = "/org/traitd/Layout1"
    public static let windowPathPrefix = "/org/traitd/Layout1/window/"
    public static let displayInterface = "org.traitd.Layout1.Display"
    public static let windowInterface = "org.traitd.Layout1.Window"
    public static let externalDisplayInterface = "org.traitd.Layout1.ExternalDisplay"
    public static let externalDisplayPathPrefix = "/org/traitd/Layout1/display/"

    /// `/org/traitd/Layout1/display/<id>`: an external display's object (ids are `external-N`, escaped as app
    /// names are).
    public static func externalDisplayPath(_ id: String) -> String {
        externalDisplayPathPrefix + Validation.escapePathElement(id)
    }

    /// `/org/traitd/Layout1/window/<app>`, the app name escaped into a valid path element (`-` is `_2d`).
    public static func windowPath(_ app: String) -> String { windowPathPrefix + Validation.escapePathElement(app) }

    /// The app whose window object has this path; nil for any other path.
    public static func app(path: String) -> String? {
        guard path.hasPrefix(windowPathPrefix) else { return nil }
        return Validation.unescapePathElement(String(path.dropFirst(windowPathPrefix.count)))
    }

    /// The external display whose object has this path; nil for any other path.
    public static func externalDisplay(path: String) -> String? {
        guard path.hasPrefix(externalDisplayPathPrefix) else { return nil }
        return Validation.unescapePathElement(String(path.dropFirst(externalDisplayPathPrefix.count)))
    }

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
        public static let outOfRange = "org.traitd.Layout1.Error.OutOfRange"
        public static let staleTransition = "org.traitd.Layout1.Error.StaleTransition"
        public static let alreadyReported = "org.traitd.Layout1.Error.AlreadyReported"
        public static let noSuchAdapter = "org.traitd.Layout1.Error.NoSuchAdapter"
        public static let adapterExists = "org.traitd.Layout1.Error.AdapterExists"
        public static let limitExceeded = "org.traitd.Layout1.Error.LimitExceeded"
        public static let eventsLost = "org.traitd.Layout1.Error.EventsLost"
        /// UISceneError 100, geometryRequestUnsupported: the request does not apply to this window now.
        public static let geometryRequestUnsupported = "org.traitd.Layout1.Error.GeometryRequestUnsupported"
        /// UISceneError 101, geometryRequestDenied: none of the requested orientations is supported.
        public static let geometryRequestDenied = "org.traitd.Layout1.Error.GeometryRequestDenied"

        /// Every name above, in order: the Python client's errors come from this list (`pythonContract`), and a
        /// test holds it to the declarations here.
        public static let all = [
            notOffered, noSuchApp, appExists, roleTaken, missingApp, notDragging, dragging, noDivider, outOfRange,
            staleTransition, alreadyReported, noSuchAdapter, adapterExists, limitExceeded, eventsLost,
            geometryRequestUnsupported, geometryRequestDenied,
        ]
    }

    /// The interface file installed to `/usr/share/dbus-1/interfaces/` and kept in `Config/dbus-1/`.
    public static var interfaceXML: String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <!-- traitd's D-Bus interfaces, as traitd prints them with its print-introspection option (make introspection); do not edit by hand. -->
        <node>

        """ + Display.interface.introspectionXML() + Window.interface.introspectionXML()
            + ExternalDisplay.interface.introspectionXML() + Testing.interface.introspectionXML() + "</node>\n"
    }
}
