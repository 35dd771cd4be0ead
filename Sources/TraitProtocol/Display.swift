import DBus
import Vocabulary

extension Layout1 {
    /// `org.traitd.Layout1.Display` on `/org/traitd/Layout1`: the simulated device, its orientation and its
    /// multitasking arrangement, the commands that change them, and the adapters' registrations.
    public enum Display {
        // MARK: Methods

        /// What every command that changes the display replies: the ids of the transitions the call started, all
        /// its stages included, in the order they began (empty when no window needed one). Each gets exactly one
        /// `TransitionCompleted`, and every signal of them was sent before the reply, so a caller that subscribed
        /// first waits for exactly its own transitions, whatever other clients do meanwhile (as systemd's
        /// `StartUnit` replies with its job).
        static let started = Parameter<[UInt64]>.transitionIDs("transitions")

        public static let setDevice = Declare.method(
            "SetDevice", .text("device", what: "the device"),
            doc: "Changes the device model (a profile id such as ipad-9.7; ListDevices names them all); returns the transitions it started.")
            .returning(started)
        public static let rotate = Declare.method(
            "Rotate", .choice("orientation", what: "orientation") as Parameter<Orientation>,
            doc: "Turns the device to an orientation (NotOffered for one it does not offer); returns the transitions it started.")
            .returning(started)
        public static let setArrangement = Declare.method(
            "SetArrangement", .choice("arrangement", what: "arrangement") as Parameter<Arrangement>,
            doc: "Changes the multitasking arrangement (full, split-two-thirds, split-half, split-one-third or slide-over); returns the transitions it started.")
            .returning(started)
        public static let openApp = Declare.method(
            "OpenApp", .appName("app"), .choice("role", what: "role") as Parameter<Role>,
            doc: "Opens an app in a role (primary, secondary, slide-over, pip; window in stage-manager and windowed); returns its window object and the transitions it started.")
            .returning(.objectPath("window"), started)
        public static let closeApp = Declare.method(
            "CloseApp", .appName("app"), doc: "Closes an open app (its window object goes); returns the transitions it started.")
            .returning(started)
        public static let setTraits = Declare.method(
            "SetTraits", .traitChanges("changes"),
            doc: "Changes display-wide settings, keyed by property name (Appearance, ContentSizeCategory, LayoutDirection, Contrast, LegibilityWeight, ReduceMotion), all or none: one transition per window on screen; returns the transitions it started.")
            .returning(started)
        public static let setWindowing = Declare.method(
            "SetWindowing", .choice("mode", what: "windowing mode") as Parameter<Windowing>,
            doc: "Changes the windowing mode (split-view, stage-manager, windowed; phones: split-view only), rearranging the open apps in one transition; returns the transitions it started.")
            .returning(started)
        public static let setKeyboard = Declare.method(
            "SetKeyboard", .choice("mode", what: "keyboard mode") as Parameter<KeyboardMode>,
            doc: "Shows, hides or moves the software keyboard: hidden, docked, undocked, split, floating, or hardware (an attached keyboard's shortcut bar); NotOffered where the device lacks the mode (phones: hidden, docked, hardware; no split keyboard on the 11-inch and 12.9-inch iPad Pros from 2018 on). Every visible window on the device's screen gets a transition (reason keyboard) with the keyboard's notifications; returns the transitions it started.")
            .returning(started)
        public static let connectDisplay = Declare.method(
            "ConnectDisplay", .text("profile", what: "the display profile"),
            doc: "Plugs in an external monitor (external-1080p, external-1440p, external-4k); returns its id (external-1), the name of its object under /org/traitd/Layout1/display/. In split-view it mirrors the device's screen; in a free-form mode windows move to it with MoveToDisplay.")
            .returning(.string("id"))
        public static let disconnectDisplay = Declare.method(
            "DisconnectDisplay", .text("id", what: "the display id"),
            doc: "Unplugs an external monitor: its windows come back to the device's screen; returns the transitions it started.")
            .returning(started)
        public static let listDevices = Declare.method(
            "ListDevices", doc: "The ids of every device profile, in the catalog's order.")
            .returning(.strings("devices"))
        public static let getState = Declare.method(
            "GetState", doc: "Everything in one call: the serial, the display's properties and every window with its properties.")
            .returning(.uint64("serial"), .vardict("display"), .objects("windows"))
        public static let getEvents = Declare.method(
            "GetEvents", .uint64("since"),
            doc: "Every signal traitd sent after the state reached Serial since (later commands' signals, and the later completions and layouts of that command's transitions), oldest first: serial, object path, interface, member, arguments. The journal keeps the last 4096 signals and at most 8 MiB of them; EventsLost when some it would return are gone.")
            .returning(.journal("events"))
        public static let beginDividerDrag = Declare.method(
            "BeginDividerDrag",
            doc: "Touches the Split View divider: both apps become inactive until the drag ends; returns the transitions it started.")
            .returning(started)
        public static let moveDivider = Declare.method(
            "MoveDivider", .double("x"),
            doc: "Moves the divider's left edge to x points (0 to the screen width minus 10) during a drag, a stage per snap point crossed; returns the transitions it started.")
            .returning(started)
        public static let endDividerDrag = Declare.method(
            "EndDividerDrag",
            doc: "Lets go of the divider: it snaps to the nearest split, or dismisses the app at an edge; returns the transitions it started.")
            .returning(started)
        public static let registerAdapter = Declare.method(
            "RegisterAdapter", .appName("app"), .adapterName("adapter"),
            doc: "Registers the calling connection as the named adapter of an app's window: its transitions wait for the adapter's reports.")
        public static let unregisterAdapter = Declare.method(
            "UnregisterAdapter", .appName("app"), .adapterName("adapter"),
            doc: "Ends a registration; only the connection that made it may.")
        public static let listAdapters = Declare.method(
            "ListAdapters", doc: "Every registration: app, adapter and the connection that owns it.")
            .returning(.registrations("adapters"))
        public static let getRestorationState = Declare.method(
            "GetRestorationState", .appName("app"),
            doc: "The restoration state of an app on screen or in the background; NoSuchApp for any other.")
            .returning(.vardict("state"))

        // MARK: Properties

        public static let device = Declare.property(.string("Device"), doc: "The device profile id, such as ipad-9.7 or iphone-xr.")
        public static let orientation = Declare.property(
            .choice("Orientation", what: "orientation") as Parameter<Orientation>,
            doc: "portrait, portrait-upside-down, landscape-left or landscape-right.")
        public static let screenSize = Declare.property(.size("ScreenSize"), doc: "Width and height in points, in the current orientation.")
        public static let scale = Declare.property(.double("Scale"), doc: "The display scale (2 or 3).")
        public static let arrangement = Declare.property(
            .choice("Arrangement", what: "arrangement") as Parameter<Arrangement>,
            doc: "full, split-two-thirds, split-half, split-one-third or slide-over.")
        public static let windows = Declare.property(.objectPaths("Windows"), doc: "The window objects, primary first.")
        public static let serial = Declare.property(.uint64("Serial"), doc: "Goes up by one with every change of state, and never otherwise.")
        public static let dividerPosition = Declare.property(
            .double("DividerPosition"), doc: "The Split View divider's left edge in points (the primary's width); 0 without a split.")
        public static let dragging = Declare.property(.boolean("Dragging"), doc: "Whether the divider is being dragged.")
        public static let backgroundApps = Declare.property(
            .strings("BackgroundApps"),
            doc: "Every app not on screen: open windows off screen (State background) in display order, then apps with no window (dismissed by the divider or a device with no room, oldest first, at most 8; OpenApp brings one back).")

        public static let windowing = Declare.property(
            .choice("Windowing", what: "windowing mode") as Parameter<Windowing>,
            doc: "split-view (the arrangements), stage-manager or windowed (free-form windows).")
        public static let stacking = Declare.property(
            .objectPaths("Stacking"),
            doc: "The windows on screen, front to back: Picture in Picture, then Slide Over or the free-form windows (the first is the key window), then the split's sides.")

        public static let displays = Declare.property(
            .strings("Displays"), doc: "The ids of the connected external displays (objects /org/traitd/Layout1/display/<id>).")
        public static let keyboard = Declare.property(
            .choice("Keyboard", what: "keyboard mode") as Parameter<KeyboardMode>,
            doc: "The software keyboard: hidden, docked, undocked, split, floating or hardware.")
        public static let keyboardFrame = Declare.property(
            .rect("KeyboardFrame"),
            doc: "The keyboard's frame on the device's screen in points, in screen coordinates in the current orientation (x, y, width, height; a split keyboard's two halves' bounding box); (0, 0, 0, 0) while hidden.")

        // MARK: Signals

        public static let displayConnected = Declare.signal(
            "DisplayConnected", .string("id"),
            doc: "An external display was connected (UIScreen.didConnectNotification); its object exists.")
        public static let displayDisconnected = Declare.signal(
            "DisplayDisconnected", .string("id"),
            doc: "An external display was disconnected (UIScreen.didDisconnectNotification); its windows are back on the device's screen.")

        /// One property per display-wide setting (`DisplayTrait.all`), named by its `property`.
        public static func trait(_ trait: DisplayTrait) -> PropertyDeclaration<String> {
            Declare.writableProperty(
                .displayTrait(trait, name: trait.property),
                doc: trait.summary + " Writable: Set is SetTraits with this one key.")
        }

        /// Every property, in the order of the XML.
        public static let properties: [AnyPropertyDeclaration] = [
            device.erased, orientation.erased, screenSize.erased, scale.erased, arrangement.erased, windows.erased, serial.erased, dividerPosition.erased, dragging.erased, backgroundApps.erased,
        ] + DisplayTrait.all.map { trait($0).erased } + [windowing.erased, stacking.erased, displays.erased, keyboard.erased, keyboardFrame.erased]

        public static let interface = InterfaceDescription(
            name: displayInterface,
            methods: [
                setDevice.description, rotate.description, setArrangement.description, openApp.description,
                closeApp.description, setTraits.description, setWindowing.description, setKeyboard.description, connectDisplay.description,
                disconnectDisplay.description, listDevices.description, getState.description, getEvents.description,
                beginDividerDrag.description,
                moveDivider.description, endDividerDrag.description, registerAdapter.description,
                unregisterAdapter.description, listAdapters.description, getRestorationState.description,
            ],
            signals: [displayConnected.description, displayDisconnected.description],
            properties: properties.map(\.description),
            doc: "The simulated display: its device, orientation and multitasking arrangement, and the adapters' registrations.")
    }
}
