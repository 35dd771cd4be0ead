import FoundationEssentials
import Vocabulary

/// A report of runs people look at (`--report DIR`): for each run (a scenario, a matrix's combination, a test)
/// its steps with the signals each caused, each window's real pixels with the frames its adapters reported, the
/// layout problems, and its differences from its goldens; written as one folder that opens from `file://`
/// (`ReportFolder`), joined with others (`merge`), its new goldens taken (`ReportAcceptance`).
///
/// This record is the folder's `report.json` and the data its viewer (`viewer.html`) shows: one description,
/// read by the viewer, by `traitctl report merge` and `traitctl accept`, and written by the Python plugin
/// through `traitctl` (never by hand). Paths of pictures are relative to the folder (`files/NAME`).
public struct Report: Sendable, Codable, Equatable {
    /// The format's name and version: a reader refuses another.
    public static let currentFormat = "traitd-report 1"

    public var format = Report.currentFormat
    /// What was run (a scenario file, a test session).
    public var title: String
    /// When it was written (ISO 8601, UTC).
    public var created: String
    /// `traitctl coverage`'s table for all runs together.
    public var coverage: [String]
    public var runs: [Run]

    public init(title: String, created: String = Report.now(), coverage: [String] = [], runs: [Run]) {
        self.title = title
        self.created = created
        self.coverage = coverage
        self.runs = runs
    }

    /// One run: a scenario, a combination of a matrix, a test.
    public struct Run: Sendable, Codable, Equatable {
        /// Unique in a report, of letters, digits and `._+-` (a file name and a URL fragment as it is).
        public var id: String
        public var title: String
        /// The scenario file (or test) it ran.
        public var source: String
        /// Where it comes in its suite (a matrix's combination number): merged reports keep their suite's order.
        public var order: Int
        /// What the run varied, in order: `device ipad-pro-11`, `appearance dark`.
        public var settings: [[String]]
        public var passed: Bool
        /// Why it failed, a line each (a differing trace, a strict scenario's problem, a run that could not finish).
        public var failures: [String]
        public var seconds: Double
        public var steps: [Step]
        /// Every layout problem of the run, in step order; elements point into it.
        public var problems: [Problem]
        /// The modes the run drove (added up over runs by `merge`, for the report's coverage).
        public var modes: [Mode]
        public var check: Check?

        public init(id: String, title: String, source: String, order: Int, settings: [[String]] = [], passed: Bool,
                    failures: [String] = [], seconds: Double = 0, steps: [Step] = [], problems: [Problem] = [],
                    modes: [Mode] = [], check: Check? = nil) {
            self.id = id
            self.title = title
            self.source = source
            self.order = order
            self.settings = settings
            self.passed = passed
            self.failures = failures
            self.seconds = seconds
            self.steps = steps
            self.problems = problems
            self.modes = modes
            self.check = check
        }
    }

    /// The state after one step (0: the start).
    public struct Step: Sendable, Codable, Equatable {
        public var number: Int
        public var title: String
        /// The signals the step caused, as `traitctl watch` prints them without times (a trace's lines).
        public var signals: [String]
        /// The whole device as `traitctl render` draws it (an SVG file), when drawn.
        public var screen: String?
        public var windows: [Window]

        public init(number: Int, title: String, signals: [String], screen: String?, windows: [Window]) {
            self.number = number
            self.title = title
            self.signals = signals
            self.screen = screen
            self.windows = windows
        }
    }

    /// A window as one adapter laid it out in a step.
    public struct Window: Sendable, Codable, Equatable {
        public var app: String
        public var adapter: String
        /// The window on its screen, in points.
        public var frame: Rect
        /// The app's real pixels (a PNG file covering the window), when its adapter sent them.
        public var picture: String?
        public var elements: [Element]
        /// Why the adapter has no layout in this step: its error, or that none came (a missed deadline).
        public var failure: String?

        public init(app: String, adapter: String, frame: Rect, picture: String?, elements: [Element], failure: String? = nil) {
            self.app = app
            self.adapter = adapter
            self.frame = frame
            self.picture = picture
            self.elements = elements
            self.failure = failure
        }
    }

    /// A reported element: its frame in the window's coordinates, what it is, and its problems (indexes into
    /// the run's `problems`).
    public struct Element: Sendable, Codable, Equatable {
        public var name: String
        public var frame: Rect
        public var kind: ElementKind?
        public var problems: [Int]

        public init(name: String, frame: Rect, kind: ElementKind?, problems: [Int]) {
            self.name = name
            self.frame = frame
            self.kind = kind
            self.problems = problems
        }
    }

    /// A mode a run drove, as `Coverage` sends it: `DrivenMode`'s five words and its settings.
    public struct Mode: Sendable, Codable, Equatable {
        public var words: [String]
        public var settings: [String]

        public init(_ mode: DrivenMode) {
            words = mode.words
            settings = mode.settings.map(\.description)
        }

        /// The mode again; throws a sentence for a word that is not one.
        public var drivenMode: DrivenMode {
            get throws { try DrivenMode(words: words, settings: settings) }
        }
    }

    /// A layout problem after a step.
    public struct Problem: Sendable, Codable, Equatable {
        public var step: Int
        public var app: String
        public var adapter: String
        public var element: String
        public var rule: String
        public var message: String

        public init(step: Int, app: String, _ problem: LayoutProblem) {
            self.step = step
            self.app = app
            adapter = problem.adapter
            element = problem.element
            rule = problem.rule.rawValue
            message = problem.message
        }
    }

    /// The run compared with its goldens.
    public struct Check: Sendable, Codable, Equatable {
        /// The golden trace's path, absolute.
        public var golden: String
        /// The same path as the run was given it (relative to where it ran): where `traitctl accept` looks on
        /// another machine or checkout, run from the same place in the tree.
        public var goldenAsGiven: String?
        /// The golden trace's content name (`ReportFolder.contentName`) when the run read it, nil when there was
        /// none: `traitctl accept` refuses to write over a golden changed since.
        public var goldenContent: String?
        public var traceMatches: Bool
        /// `TraceDiff`'s lines (`  `, `- `, `+ `, and `… N lines the same` where it leaves lines out); empty when
        /// the trace matches.
        public var traceDiff: [String]
        /// This run's trace (a file), what `traitctl accept` writes as the golden.
        public var trace: String
        /// The pictures that differ from their goldens (or have none).
        public var pictures: [PictureCheck]
        /// Every picture of this run under its golden name (`02-notes-web.png` -> a file), what `traitctl
        /// accept` writes as the golden pictures; empty when the scenario keeps none.
        public var newPictures: [String: String]
        /// The command that takes this run's trace and pictures as its goldens (naming the report's folder:
        /// `ReportFolder.write` writes it).
        public var accept: String

        public init(golden: String, traceMatches: Bool, traceDiff: [String], trace: String, pictures: [PictureCheck],
                    newPictures: [String: String], accept: String) {
            self.golden = golden
            self.traceMatches = traceMatches
            self.traceDiff = traceDiff
            self.trace = trace
            self.pictures = pictures
            self.newPictures = newPictures
            self.accept = accept
        }
    }

    /// A picture that differs from its golden.
    public struct PictureCheck: Sendable, Codable, Equatable {
        public var step: Int
        public var app: String
        public var adapter: String
        /// The golden picture (a file), nil when there is none yet.
        public var golden: String?
        public var actual: String
        /// The picture of the difference (pixelmatch's), when the sizes agree.
        public var diff: String?
        public var message: String
        /// What the frames say moved.
        public var moved: String

        public init(step: Int, app: String, adapter: String, golden: String?, actual: String, diff: String?, message: String, moved: String) {
            self.step = step
            self.app = app
            self.adapter = adapter
            self.golden = golden
            self.actual = actual
            self.diff = diff
            self.message = message
            self.moved = moved
        }
    }

    /// Now, as `created` writes it.
    public static func now() -> String {
        Date.now.formatted(.iso8601)
    }
}
