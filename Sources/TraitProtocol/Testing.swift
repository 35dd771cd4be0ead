import DBus
import Vocabulary

extension Layout1 {
    /// `org.traitd.Layout1.Testing` on `/org/traitd/Layout1`, only with `traitd --testing` or `--clock virtual`:
    /// what an exact test needs and a deployed daemon must not offer. With the virtual clock, time moves only
    /// when a client advances it.
    public enum Testing {
        public static let advanceClock = Declare.method(
            "AdvanceClock", .uint64("milliseconds"),
            doc: "Moves the virtual clock forward; returns once every timer due in that span (adapter deadlines) has fired, in time order, and its signals were sent. Returns the clock's time in milliseconds since traitd started. NotOffered with the real clock; InvalidArgs past 2^53 ms (about 285,000 years), the clock unmoved.")
            .returning(.uint64("now"))

        public static let reset = Declare.method(
            "Reset",
            doc: "Sets the simulation back to the configuration's starting state (device, arrangement, windows, settings; restoration states emptied) without a restart, as one transition per changed window (reason reset); adapters stay registered and Serial keeps growing. Returns the transitions it started.")
            .returning(Display.started)
        public static let saveSnapshot = Declare.method(
            "SaveSnapshot", .text("name", what: "the snapshot name"),
            doc: "Keeps the whole simulation (the display, its windows, settings and restoration states) under a name, in memory, replacing one of that name; at most 64.")
        public static let restoreSnapshot = Declare.method(
            "RestoreSnapshot", .text("name", what: "the snapshot name"),
            doc: "Brings a snapshot back, as Reset does: one transition per changed window. InvalidArgs for an unknown name, naming those there are. Returns the transitions it started.")
            .returning(Display.started)
        public static let listSnapshots = Declare.method(
            "ListSnapshots", doc: "The names of the snapshots kept, sorted.")
            .returning(.strings("names"))

        public static let coverage = Declare.method(
            "Coverage",
            doc: "Every mode a window has been in since traitd started (Reset keeps them): device class, orientation, placement (a Split View or Slide Over slot, pip, a free-form width band, monitor), horizontal and vertical size class, and the settings away from their defaults as WORD=VALUE, sorted.")
            .returning(.drivenModes("modes"))

        public static let adaptationCoverage = Declare.method(
            "AdaptationCoverage",
            doc: "Beside Coverage's modes, since traitd started (Reset keeps them): each of Android's window size classes a window on a screen had (windowWidthSizeClass or windowHeightSizeClass, and the class), and each breakpoint an app declared (SetBreakpoints) seen holding or not (app, breakpoint, applied), sorted.")
            .returning(.windowSizeClassCoverage("window_size_classes"), .breakpointCoverage("breakpoints"))

        public static let interface = InterfaceDescription(
            name: testingInterface,
            methods: [advanceClock.description, reset.description, saveSnapshot.description, restoreSnapshot.description,
                      listSnapshots.description, coverage.description, adaptationCoverage.description],
            properties: [],
            doc: "For test suites, with traitd --testing or --clock virtual: the virtual clock, reset, snapshots and coverage.")

        /// How many snapshots a daemon keeps at most.
        public static let maximumSnapshots = 64
    }

    public static let testingInterface = "org.traitd.Layout1.Testing"
}
