import DBus
import Vocabulary

extension Layout1 {
    /// `org.traitd.Layout1.Window` on `/org/traitd/Layout1/window/<app>`: one app's window, its frame and
    /// traits, the transition signals in UIKit's order, and what adapters and the app put there.
    public enum Window {
        // MARK: Methods

        public static let reportLayout = Declare.method(
            "ReportLayout", .uint64("transition"), .adapterName("adapter"), .frames("frames"), .vardict("extras"),
            doc: "An adapter's layout for a transition (0: for the window as it is): element frames in window coordinates, and extras (error: the layout failed; kinds a{ss}: element -> background, container, content, control or text; scrolledIn a{ss}: element -> the scroll view it scrolls in; minimumSize (dd) and reflow (sd): the app or page needs more room than the window; contentBoxes as: elements known only by their content box, whose small-target sentence says so; clippedText a{s(sdd)}: element -> how its text is cut and the size it needs; lowContrast a{s(dd)}: element -> its text's contrast against its background and the ratio required). Checked against the window's geometry (LayoutProblems).")
        public static let setRestorationState = Declare.method(
            "SetRestorationState", .value("state", "a{sv}"),
            doc: "Replaces the app's restoration state; the reply comes once it is on disk.")

        public static let explain = Declare.method(
            "Explain",
            doc: "Why the window is what it is: (topic, sentence) for its frame, size classes, safe area, traits and state (the tables and rules that made them), its last transition, its adapters' reports and its layout problems.")
            .returning(.explanations("explanation"))

        // The free-form window's commands reply as the display's do: the transitions they started.
        public static let setFrame = Declare.method(
            "SetFrame", .rect("frame"),
            doc: "Moves and sizes a free-form window: x, y, width, height in points, at least the minimum size and inside the screen (OutOfRange otherwise); returns the transitions it started.")
            .returning(Display.started)
        public static let tile = Declare.method(
            "Tile", .choice("position", what: "tile position") as Parameter<TilePosition>,
            doc: "Puts a free-form window in a tile: full, left-half, right-half, top-left, top-right, bottom-left or bottom-right, with the tile gap between tiles; returns the transitions it started.")
            .returning(Display.started)
        public static let raise = Declare.method(
            "Raise", doc: "Brings a free-form window to the front (Stacking): it becomes the key window; returns the transitions it started (none).")
            .returning(Display.started)
        public static let beginResize = Declare.method(
            "BeginResize", doc: "Takes a free-form window's corner: it comes to the front and publishes InteractivelyResizing true until EndResize, staying active (iPadOS 26); returns the transitions it started.")
            .returning(Display.started)
        public static let resizeTo = Declare.method(
            "ResizeTo", .size("size"),
            doc: "One step of a live resize, the top-left corner staying, held between the minimum size and the screen's edges; a step that comes while the window's transition is open waits, and only the latest waiting step is applied, when that transition completes; returns the transitions it started, or for a waiting step the transition that will carry it.")
            .returning(Display.started)
        public static let moveToDisplay = Declare.method(
            "MoveToDisplay", .text("display", what: "the display id"),
            doc: "Moves a free-form window to another screen (device, or an external display's id), fitted to it and in front: a transition, the display scale a trait change where it differs; returns the transitions it started.")
            .returning(Display.started)
        public static let setSizeRestrictions = Declare.method(
            "SetSizeRestrictions", .size("minimum"), .size("maximum"),
            doc: "Declares the window's smallest and largest size (UISceneSizeRestrictions); only a connection that registered an adapter for this window may (AccessDenied otherwise). SetFrame outside them is OutOfRange; Tile, a live resize and RequestGeometryUpdate are held within them; a free-form window outside them is resized. Returns the transitions it started.")
            .returning(Display.started)
        public static let setSupportedOrientations = Declare.method(
            "SetSupportedOrientations", .orientations("orientations"),
            doc: "Declares the orientations the app supports (none: all); only an adapter's connection may. Where the app owns the screen (a phone's primary app; on an iPad the window that fills it, iPadOS 26's orientation lock) a rotation to one it does not support leaves the interface in the nearest it does, and the interface turns now if it is in one it does not. Returns the transitions it started.")
            .returning(Display.started)
        public static let requestGeometryUpdate = Declare.method(
            "RequestGeometryUpdate", .geometryRequest("preferences"),
            doc: "Asks for a geometry (UIWindowScene.requestGeometryUpdate): orientations (as; the first supported and offered, the current one if among them), size and origin ((dd), a free-form window, held within its restrictions and the screen). GeometryRequestDenied (UISceneError 101) when none of the orientations is supported; GeometryRequestUnsupported (100) where the app does not own the screen, or a size for a window the system places. Only an adapter's connection may. Returns the transitions it started.")
            .returning(Display.started)
        public static let setBreakpoints = Declare.method(
            "SetBreakpoints", .dictionary("breakpoints", of: .string("breakpoints")),
            doc: "Declares the app's breakpoints, in place of those it had: name -> condition in libadwaita's AdwBreakpointCondition syntax (min-width, max-width, min-height, max-height: a length in px, pt or sp; min-aspect-ratio, max-aspect-ratio: W/H; and, or, parentheses; no precedence, each operator applying to all before it). Units as libadwaita converts them, a point of the window's frame being GTK's logical pixel: px is a point, sp a point times the text size's scale, pt 4/3 of an sp. Judged at every change of the window (its size, the text size); Breakpoints holds every one that applies (libadwaita's AdwBreakpointBin applies only the last of those; traitd names them all), and a transition sends BreakpointUnapplied and BreakpointApplied before ViewWillLayoutSubviews where they change (the call itself starts one where they do). A condition that is none is InvalidArgs naming the breakpoint, the column and what was expected; at most 1024 characters and 32 conditions each, at most 64 breakpoints, names of 1 to 64 letters, digits, '-', '_' or '.'. Only an adapter's connection may (AccessDenied otherwise). Returns the transitions it started.")
            .returning(Display.started)
        public static let setTraitOverrides = Declare.method(
            "SetTraitOverrides", .traitOverrides("overrides"),
            doc: "Overrides the window's traits, as UIKit's UIWindowScene.traitOverrides, in place of the overrides it had: a system trait (its key in Traits: userInterfaceStyle 'dark' while the display is light, preferredContentSizeCategory, horizontalSizeClass, displayScale d...) to a value it takes; a custom trait (UITraitDefinition; a name with a dot, com.example.density) to its value (b, x, d or s; its default false, 0 or '' unless named before), or to a{sv} with default and, optionally, value. A custom trait once named stays in Traits for as long as the app is open, at its default when no longer overridden. Traits carries the result; where it changes, a trait transition in UIKit's order (TraitDidChange for each system or custom trait that changed). Explain names the values that came from an override. Saved with the app's state. At most 64 custom traits, names of 1 to 64 letters, digits, '-', '_' or '.', strings of 1024 characters. Only an adapter's connection may (AccessDenied otherwise). Returns the transitions it started.")
            .returning(Display.started)
        public static let endResize = Declare.method(
            "EndResize", doc: "Lets go: InteractivelyResizing becomes false; with a step still waiting, the call waits for the open transition to complete, the step is applied, and the reply names its transition; returns the transitions it settled.")
            .returning(Display.started)

        /// The keys of `ReportLayout`'s extras that traitd reads (an adapter's other keys are its own).
        public enum Extras {
            /// s: the layout failed, and why; its frames are not published.
            public static let error = "error"
            /// a{ss}: element -> what it is (`ElementKind`: background, container, content, control, text).
            public static let kinds = "kinds"
            /// a{ss}: element -> the element (a scroll view) it scrolls in.
            public static let scrolledIn = "scrolledIn"
            /// s: a PNG file of the window's pixels as the app drew them for this report (the bridges write one with
            /// `traitd-adapters --screenshots`); `traitctl render` and `traitd-view` draw it in the window. Not read
            /// by traitd: a path on the adapter's machine, for the clients beside it.
            public static let screenshot = "screenshot"
            /// (dd): the smallest size the app lays itself out at, where its window was given less (a desktop app
            /// whose window does not shrink): judged as one `minimum-size` problem, and its widgets past the window
            /// within that size are not judged again.
            public static let minimumSize = "minimumSize"
            /// (sd): the page is wider than its window: its widest element and that width in points (a bridged page
            /// that scrolls sideways): judged as one `reflow` problem.
            public static let reflow = "reflow"
            /// as: elements the adapter knows only by their content box, not by what is drawn (GTK 4 gives a widget's
            /// extents without its padding and border: a pill button drawn 190 x 44 is reported 126 x 24), so that
            /// their size is a lower bound: `small-target`'s sentence says the size is inside the padding.
            public static let contentBoxes = "contentBoxes"
            /// a{s(sdd)}: element (its name, or its place where the report has no frame for it) -> how its text
            /// is cut (`ellipsized`, `clipped`, `clamped`) and the size the text needs in points: judged as
            /// `clipped-text` problems.
            public static let clippedText = "clippedText"
            /// a{s(dd)}: element (its name, or its place) -> the contrast ratio of its text against its background
            /// and the ratio WCAG 1.4.3 asks of text of its size (4.5, or 3 for large text): judged as
            /// `low-contrast` problems.
            public static let lowContrast = "lowContrast"
            /// s: the window's accessibility snapshot as of this report (`AriaSnapshot`: roles, names, states and
            /// nesting, as Playwright writes aria snapshots; the bridges send one with `traitd-adapters
            /// --aria-snapshots`). Not read by traitd: `traitctl aria` prints it, scenarios keep it in their trace.
            public static let ariaSnapshot = "ariaSnapshot"

            public static let kindsParameter = Parameter<[String: ElementKind]>.dictionary(
                kinds, of: .choice(kinds, what: "element kind"))
            public static let scrolledInParameter = Parameter<[String: String]>.dictionary(scrolledIn, of: .string(scrolledIn))
            public static let minimumSizeParameter = Parameter<Size>.size(minimumSize)
            public static let reflowParameter = Parameter<Reflow>.reflow(reflow)
            public static let contentBoxesParameter = Parameter<[String]>.strings(contentBoxes)
            public static let clippedTextParameter = Parameter<[String: ClippedText]>.dictionary(
                clippedText, of: .clippedText(clippedText))
            public static let lowContrastParameter = Parameter<[String: LowContrast]>.dictionary(
                lowContrast, of: .lowContrast(lowContrast))
        }

        // MARK: Signals

        public static let willTransitionToTraitCollection = Declare.signal(
            "WillTransitionToTraitCollection", .uint64("transition"), .traits("new_traits"),
            doc: "The window's traits are about to change (first, and only when they change).")
        public static let viewWillTransitionToSize = Declare.signal(
            "ViewWillTransitionToSize", .uint64("transition"), .double("width"), .double("height"), .sizeContext("context"),
            doc: "The window's size is about to change, or the device turns (a half turn too, with the size unchanged); the context holds duration, reason, orientation, frame, safeAreaInsets, snapshot and screenSize.")
        public static let traitCollectionDidChange = Declare.signal(
            "TraitCollectionDidChange", .uint64("transition"), .traits("previous_traits"),
            doc: "The properties hold the new traits; the argument has the previous ones.")
        public static let traitDidChange = Declare.signal(
            "TraitDidChange", .uint64("transition"), .string("trait"), .value("value", "v"), .value("previous", "v"),
            doc: "One per trait that changed, after TraitCollectionDidChange: its key in Traits (userInterfaceStyle, horizontalSizeClass...), new and previous value. Subscribe to one trait with the match rule arg1='userInterfaceStyle', as registerForTraitChanges.")
        public static let contentSizeCategoryDidChange = Declare.signal(
            "ContentSizeCategoryDidChange", .uint64("transition"),
            .choice("category", what: "content size category") as Parameter<ContentSizeCategory>,
            doc: "The text size changed (UIContentSizeCategory.didChangeNotification): the new category.")
        public static let viewSafeAreaInsetsDidChange = Declare.signal(
            "ViewSafeAreaInsetsDidChange", .uint64("transition"), .insets("insets"),
            doc: "The window's safe area changed (after TraitCollectionDidChange): top, left, bottom, right.")
        public static let breakpointUnapplied = Declare.signal(
            "BreakpointUnapplied", .uint64("transition"), .string("breakpoint"),
            doc: "One of the app's breakpoints (SetBreakpoints) stopped holding: after the trait and safe-area signals, before the BreakpointApplied of the same transition and ViewWillLayoutSubviews (libadwaita's unapply), one per breakpoint, by name.")
        public static let breakpointApplied = Declare.signal(
            "BreakpointApplied", .uint64("transition"), .string("breakpoint"),
            doc: "One of the app's breakpoints holds now: after the transition's BreakpointUnapplied, before ViewWillLayoutSubviews (libadwaita's apply, before the layout pass), one per breakpoint, by name.")
        public static let viewWillLayoutSubviews = Declare.signal(
            "ViewWillLayoutSubviews", .uint64("transition"),
            doc: "The transition's last signal, sent for every transition: the window's frame, traits and safe area are final (in its properties and the signals before); lay out now and report with ReportLayout.")
        /// The six keyboard notifications, in `KeyboardNotice.Kind`'s order, alike but for their names.
        public static let keyboardNotices: [KeyboardNotice.Kind: SignalDeclaration<(UInt64, Rect, Rect, Double, Int32, Bool)>] =
            Dictionary(uniqueKeysWithValues: KeyboardNotice.Kind.allCases.map { kind in
                (kind, Declare.signal(
                    kind.rawValue, .uint64("transition"), .rect("begin"), .rect("end"), .double("duration"), .int32("curve"),
                    .boolean("local"),
                    doc: "UIKit's \(kind.rawValue) notification, to every visible window on the device's screen: the keyboard's frames before and after (screen coordinates, the current orientation), the animation's duration in seconds and curve (7), and whether this window's app raised the keyboard (the key window). Will signals come before the window's new properties, Did signals after ViewWillLayoutSubviews."))
            })
        public static let didUpdateEffectiveGeometry = Declare.signal(
            "DidUpdateEffectiveGeometry", .uint64("transition"), .effectiveGeometry("previous"),
            doc: "The window scene's geometry changed (windowScene(_:didUpdateEffectiveGeometry:)): frame, display, orientation, interactivelyResizing, size restrictions; sent after the window's PropertiesChanged (which hold the new one) with the previous one, in the transition that changed it (0 for a move alone), a move to another display included.")
        public static let transitionCompleted = Declare.signal(
            "TransitionCompleted", .uint64("transition"), .strings("reported"), .strings("missed"), .strings("failed"),
            doc: "Exactly once for each transition: the adapters that reported, missed the deadline, or failed to lay out.")
        public static let willResignActive = Declare.signal("WillResignActive", doc: "The app is about to become inactive.")
        public static let didBecomeActive = Declare.signal("DidBecomeActive", doc: "The app became active.")
        public static let didEnterBackground = Declare.signal("DidEnterBackground", doc: "The app left the screen.")
        public static let willEnterForeground = Declare.signal("WillEnterForeground", doc: "The app is coming back on screen.")

        // MARK: Properties

        public static let app = Declare.property(.string("App"), doc: "The app name.")
        public static let role = Declare.property(
            .choice("Role", what: "role") as Parameter<Role>, doc: "primary, secondary, slide-over, pip, or window (a free-form window).")
        public static let frame = Declare.property(.rect("Frame"), doc: "x, y, width and height in screen points.")
        public static let horizontalSizeClass = Declare.property(
            .choice("HorizontalSizeClass", what: "size class") as Parameter<SizeClass>, doc: "compact or regular.")
        public static let verticalSizeClass = Declare.property(
            .choice("VerticalSizeClass", what: "size class") as Parameter<SizeClass>, doc: "compact or regular.")
        public static let traits = Declare.property(
            .traits("Traits"),
            doc: "horizontalSizeClass, verticalSizeClass, idiom, displayScale, userInterfaceLevel, displayGamut, activeAppearance (active: the front window of its screen in Stage Manager and windowed apps, every visible window otherwise), windowWidthSizeClass (Android's: compact below 600, medium, expanded from 840, large from 1200, extra-large from 1600) and windowHeightSizeClass (compact below 480, medium, expanded from 900) of the window's size in points taken as dp, userInterfaceStyle, preferredContentSizeCategory, layoutDirection, accessibilityContrast and legibilityWeight; any of them as the app overrode it, and the custom traits it named, by name (SetTraitOverrides).")
        public static let state = Declare.property(
            .choice("State", what: "app state") as Parameter<AppState>, doc: "active, inactive or background.")
        public static let safeAreaInsets = Declare.property(
            .insets("SafeAreaInsets"), doc: "top, left, bottom and right in points, inside the frame.")
        public static let display = Declare.property(
            .string("Display"), doc: "The screen the window is on: device, or an external display's id (external-1).")
        public static let interactivelyResizing = Declare.property(
            .boolean("InteractivelyResizing"),
            doc: "A live resize is under way (BeginResize to EndResize); the window stays active, as on iPadOS 26.")
        public static let windowControls = Declare.property(
            .rect("WindowControls"),
            doc: "iPadOS 26's window controls (close, minimise, arrange) in window coordinates: at the top leading corner of a Stage Manager or windowed app's window that does not fill its screen; (0, 0, 0, 0) where there are none. They add nothing to SafeAreaInsets.")
        public static let cornerAdaptedInsets = Declare.property(
            .dictionary("CornerAdaptedInsets", of: .insets("CornerAdaptedInsets")),
            doc: "The safe area adapted to the window controls, as UIKit 26's safeArea(cornerAdaptation:): horizontal (the leading edge past the controls) and vertical (the top below them), each top, left, bottom, right; both the safe area where there are no controls.")
        public static let sizeRestrictions = Declare.property(
            .sizeRestrictions("SizeRestrictions"),
            doc: "The size restrictions the app declared (SetSizeRestrictions): minimum and maximum; ((0, 0), (0, 0)) without.")
        public static let supportedOrientations = Declare.property(
            .orientations("SupportedOrientations"), doc: "The orientations the app declared it supports (SetSupportedOrientations); empty: all.")
        public static let breakpoints = Declare.property(
            .strings("Breakpoints"), doc: "The names of the app's breakpoints (SetBreakpoints) that hold for the window now, sorted.")
        public static let adapters = Declare.property(.strings("Adapters"), doc: "The adapters registered for this window.")
        public static let layouts = Declare.property(
            .layouts("Layouts"),
            doc: "adapter, element and frame (window coordinates): each adapter's latest accepted report.")
        public static let layoutExtras = Declare.property(
            .layoutExtras("LayoutExtras"), doc: "The extras of each adapter's latest report (error for a failed layout).")
        public static let layoutProblems = Declare.property(
            .layoutProblems("LayoutProblems"),
            doc: "adapter, element, rule (minimum-size, reflow, outside-window, outside-safe-area, overlap, small-target, under-keyboard, under-window-controls, clipped-text, low-contrast) and a sentence with the numbers: what the latest reports break of the geometry this window was given.")
        public static let restorationState = Declare.property(
            .vardict("RestorationState"), doc: "The app's own state; nothing the simulation does changes it.")

        /// Every property, in the order of the XML.
        public static let properties: [AnyPropertyDeclaration] = [
            app.erased, role.erased, frame.erased, horizontalSizeClass.erased, verticalSizeClass.erased, traits.erased, state.erased, safeAreaInsets.erased, display.erased, interactivelyResizing.erased, windowControls.erased, cornerAdaptedInsets.erased, sizeRestrictions.erased, supportedOrientations.erased, breakpoints.erased, adapters.erased, layouts.erased, layoutExtras.erased, layoutProblems.erased, restorationState.erased,
        ]

        public static let interface = InterfaceDescription(
            name: windowInterface,
            methods: [
                reportLayout.description, setRestorationState.description, explain.description, setFrame.description, tile.description,
                raise.description, beginResize.description, resizeTo.description, endResize.description,
                moveToDisplay.description, setSizeRestrictions.description, setSupportedOrientations.description,
                requestGeometryUpdate.description, setBreakpoints.description, setTraitOverrides.description,
            ],
            signals: [
                willTransitionToTraitCollection.description, viewWillTransitionToSize.description,
                traitCollectionDidChange.description, traitDidChange.description, contentSizeCategoryDidChange.description,
                viewSafeAreaInsetsDidChange.description, breakpointUnapplied.description, breakpointApplied.description,
                viewWillLayoutSubviews.description,
            ] + KeyboardNotice.Kind.allCases.map { keyboardNotices[$0]!.description } + [
                didUpdateEffectiveGeometry.description,
                transitionCompleted.description, willResignActive.description, didBecomeActive.description,
                didEnterBackground.description, willEnterForeground.description,
            ],
            properties: properties.map(\.description),
            doc: "One app's window: its frame and traits, the transition signals in UIKit's order, and its adapters' layouts.")
    }
}
