import FoundationEssentials
import Pictures
import ScenarioTraces
import TraitClient
import Vocabulary

/// A scenario's run, recorded with its steps kept (`ScenarioRecorder(keepsSteps: true)`), as a report's run:
/// each step's signals, the device as `traitctl render` draws it, each window's real pictures with the frames
/// and kinds its adapters reported, and the problems, each element pointing at its own.
public struct RecordedRun: Sendable {
    /// The run as the report names it (id, title, source, order, settings, outcome, failures, time, modes): its
    /// steps, problems and check are what `reportRun(in:)` adds.
    public var run: Report.Run
    public var recording: ScenarioRun
    /// Its comparison with its goldens, when it had some.
    public var goldens: Goldens?

    public init(_ run: Report.Run, recording: ScenarioRun, goldens: Goldens?) {
        self.run = run
        self.recording = recording
        self.goldens = goldens
    }

    /// What the run was checked against: the golden trace (its path, its text when it could be read), the
    /// pictures that differ from theirs, whether the scenario keeps golden pictures, and the report's folder as
    /// the accept command names it.
    public struct Goldens: Sendable {
        public var trace: String
        public var text: String?
        public var pictures: [GoldenPictures.Difference]
        public var keepsPictures: Bool

        public init(trace: String, text: String?, pictures: [GoldenPictures.Difference], keepsPictures: Bool) {
            self.trace = trace
            self.text = text
            self.pictures = pictures
            self.keepsPictures = keepsPictures
        }
    }

    /// The run as the report keeps it, its pictures and traces stored in `folder`.
    public func reportRun(in folder: ReportFolder) throws -> Report.Run {
        var problems: [Report.Problem] = []
        var steps: [Report.Step] = []
        for step in recording.steps {
            var windows: [Report.Window] = []
            for window in step.state.windows where window.state != .background {
                var pointing: [String: [Int]] = [:]  // "ADAPTER ELEMENT" -> its problems
                for problem in window.layoutProblems {
                    pointing["\(problem.adapter) \(problem.element)", default: []].append(problems.count)
                    problems.append(Report.Problem(step: step.number, app: window.app, problem))
                }
                for adapter in window.layouts.keys.sorted() {
                    let png = recording.pictures.first { $0.step == step.number && $0.app == window.app && $0.adapter == adapter }?.png
                    let elements = window.layouts[adapter]!.sorted { $0.key < $1.key }.map { name, frame in
                        Report.Element(name: name, frame: frame, kind: window.kinds[adapter]?[name],
                                       problems: pointing["\(adapter) \(name)"] ?? [])
                    }
                    windows.append(Report.Window(app: window.app, adapter: adapter, frame: window.frame,
                                                 picture: try png.map { try folder.store($0, as: "png") }, elements: elements))
                }
                // An adapter of the window with no layout: shown where it failed (its error) or missed this step's
                // transition (its TransitionCompleted says so); one that has not reported yet (a scenario's start,
                // before the first transition) has nothing to show, and is no failure.
                let missed = step.missed[window.app] ?? []
                for adapter in window.adapters.sorted() where window.layouts[adapter] == nil {
                    guard let failure = window.failures[adapter].map({ "its layout failed: \($0)" })
                        ?? (missed.contains(adapter) ? "it missed the transition's deadline: no layout" : nil) else { continue }
                    windows.append(Report.Window(app: window.app, adapter: adapter, frame: window.frame, picture: nil, elements: [],
                                                 failure: failure))
                }
            }
            // The device as render draws it, without the pictures (each window's is beside it, full size).
            var state = step.state
            for index in state.windows.indices { state.windows[index].screenshots = [:] }
            let screen = try folder.store(Array(ScreenPicture(state).picture.svg.utf8), as: "svg")
            steps.append(Report.Step(number: step.number, title: step.title, signals: step.signals, screen: screen, windows: windows))
        }
        var whole = run
        (whole.steps, whole.problems) = (steps, problems)
        whole.check = try goldens.map { try check($0, in: folder) }
        return whole
    }

    private func check(_ goldens: Goldens, in folder: ReportFolder) throws -> Report.Check {
        let trace = recording.trace
        let matches = goldens.text.map { TraceDiff.matches(golden: $0, trace) } ?? false
        let diff = matches ? [] : goldens.text.map { TraceDiff.lines($0, trace).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            ?? trace.split(separator: "\n").map { "+ \($0)" }
        let pictures = try goldens.pictures.map { difference in
            Report.PictureCheck(step: difference.picture.step, app: difference.picture.app, adapter: difference.picture.adapter,
                                golden: try difference.golden.map { try folder.store($0, as: "png") },
                                actual: try folder.store(difference.picture.png, as: "png"),
                                diff: try difference.diff.map { try folder.store($0, as: "png") },
                                message: difference.how, moved: difference.moved)
        }
        var newPictures: [String: String] = [:]
        if goldens.keepsPictures {
            for picture in recording.pictures { newPictures[picture.fileName] = try folder.store(picture.png, as: "png") }
        }
        var check = Report.Check(golden: URL(fileURLWithPath: goldens.trace).standardizedFileURL.path, traceMatches: matches, traceDiff: diff,
                                 trace: try folder.store(Array(trace.utf8), as: "trace"), pictures: pictures, newPictures: newPictures,
                                 accept: "")
        check.goldenAsGiven = goldens.trace
        check.goldenContent = goldens.text.map { ReportFolder.contentName(Array($0.utf8)) }
        return check
    }
}
