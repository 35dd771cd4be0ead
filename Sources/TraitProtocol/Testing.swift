import DBus
import Vocabulary

extension Layout1 {
    /// `org.traitd.Layout1.Testing` on `/org/traitd/Layout1`, only with `traitd --testing` or `--clock virtual`:
    /// what an exact test needs and a deployed daemon must not offer. With the virtual clock, time moves only
    /// when a client advances it.
    public enum Testing {
        public static let advanceClock = Declare.method(
            "AdvanceClock", .uint64("milliseconds"),
            doc: "Moves the virtual clock forward; returns once every timer due in that span (adapter deadlines) has fired, in time order, and its signals were sent. Returns the clock's time in milliseconds since traitd started. NotOffered with the real clock.")
            .returning(.uint64("now"))

        public static let interface = InterfaceDescription(
            name: testingInterface, methods: [advanceClock.description], properties: [],
            doc: "For test suites, with traitd --testing or --clock virtual: the virtual clock.")
    }

    public static let testingInterface = "org.traitd.Layout1.Testing"
}
