import DBus
import Vocabulary

extension Layout1 {
    /// `org.traitd.Layout1.ExternalDisplay` on `/org/traitd/Layout1/display/<id>`: a connected monitor
    /// (`ConnectDisplay`), its screen and the windows on it. The object comes with `DisplayConnected` and goes
    /// with `DisplayDisconnected`.
    public enum ExternalDisplay {
        public static let profile = Declare.property(
            .string("Profile"), doc: "The monitor's profile: external-1080p, external-1440p or external-4k.")
        public static let screenSize = Declare.property(
            .size("ScreenSize"), doc: "Width and height in points (the resolution in pixels over the scale).")
        public static let scale = Declare.property(.double("Scale"), doc: "The display scale (1 or 2).")
        public static let windows = Declare.property(
            .objectPaths("Windows"),
            doc: "The windows on it, front to back; none in split-view windowing, where it mirrors the device's screen.")

        public static let properties: [AnyPropertyDeclaration] = [profile.erased, screenSize.erased, scale.erased, windows.erased]

        public static let interface = InterfaceDescription(
            name: externalDisplayInterface, methods: [], properties: properties.map(\.description),
            doc: "An external display: its profile, its screen and the free-form windows on it.")
    }
}
