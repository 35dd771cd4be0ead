import BusValues
import Vocabulary

/// One adapter's accepted answer to a transition, as the shell read it from `ReportLayout` (checked, its extras
/// read, judged against the window it answers: `LayoutReport+Reading` in TraitService, the edge) and the core
/// keeps it.
///
/// A report whose extras carry `error` (a string) is a failed layout: its frames are not published, as a
/// layout that could not be computed has no true frames, and it is not judged.
public struct LayoutReport: Equatable, Sendable {
    public var frames: [String: Rect]
    public var extras: [String: DBusValue]
    /// Bytes of the frames, extras and problems in the wire format (what the report adds to `Layouts`,
    /// `LayoutExtras` and `LayoutProblems`).
    public var bytes: Int
    /// What the layout breaks of the window's geometry (`LayoutJudge`).
    public var problems: [LayoutProblem]
    /// The failure the adapter reported, if any.
    public var failure: String?

    public init(frames: [String: Rect], extras: [String: DBusValue], bytes: Int, problems: [LayoutProblem], failure: String?) {
        self.frames = frames
        self.extras = extras
        self.bytes = bytes
        self.problems = problems
        self.failure = failure
    }
}
