import FoundationEssentials
import Pixels
import Vocabulary

/// A scenario's golden pictures (`screenshots: true`): each bridged window's screenshot after each step, kept
/// beside the golden trace (`TRACE.pictures/02-notes-web.png`, step 2's picture of notes' adapter web) and
/// checked as Playwright's `toHaveScreenshot` checks: pixel by pixel as pixelmatch compares (`PixelDiff`, at
/// Playwright's threshold, 0.2), no differing pixel allowed, anti-aliasing allowed. The bridges take a picture
/// only once two captures in a row are alike (Playwright's stability rule). A picture that differs is explained
/// by what the frames say moved, from the golden trace's and the run's `layouts` lines of that step ("sidebar: x
/// 374 -> 0, width 320 -> 507"), and the run's picture and a picture of the difference are written beside the
/// golden (`.actual.png`, `.diff.png`) for review; `--update` takes the run's as the goldens.
public enum GoldenPictures {
    /// The folder of `trace`'s golden pictures.
    public static func folder(of trace: String) -> String { trace + ".pictures" }

    /// Playwright's default `threshold` for `toHaveScreenshot`.
    public static let threshold = 0.2

    /// Writes the run's pictures as the goldens, in place of the folder's old ones.
    public static func write(_ pictures: [ScenarioRun.Picture], beside trace: String) throws {
        try write(Dictionary(pictures.map { ($0.fileName, $0.png) }, uniquingKeysWith: { $1 }), beside: trace)
    }

    /// Writes pictures by their golden names (`02-notes-web.png`) as the goldens, in place of the folder's old
    /// ones (and of the review files `check` left).
    public static func write(_ pictures: [String: [UInt8]], beside trace: String) throws {
        let folder = folder(of: trace)
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, png) in pictures {
            try Data(png).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
    }

    /// A picture that differs from its golden (or has none): what differs, what the frames say moved, and the
    /// pictures to review.
    public struct Difference: Sendable, CustomStringConvertible {
        public let picture: ScenarioRun.Picture
        /// The golden picture's PNG, nil when there is none (or it cannot be read).
        public let golden: [UInt8]?
        /// pixelmatch's picture of the difference, when both are the same size.
        public let diff: [UInt8]?
        /// How they differ: `1234 of 995596 pixels differ, in x 0-834, y 0-80 px`.
        public let how: String
        /// What the frames say moved (`TraceFrames.changes`), or empty when there is no golden to compare.
        public let moved: String
        /// The files written beside the golden for review, named in the line.
        let review: String

        /// The line `scenario run --check` prints: `step 1 (rotate): notes web: HOW; MOVED (REVIEW)`.
        public var description: String {
            "\(picture.title): \(picture.app) \(picture.adapter): \(how)" + (moved.isEmpty ? "" : "; \(moved)") + review
        }
    }

    /// Each picture that differs from its golden (or has none), saying how and what the frames say moved; empty
    /// when all match. `golden` and `run` are the traces, for the frames. The run's picture and the picture of
    /// the difference are written beside the golden for review.
    public static func check(_ pictures: [ScenarioRun.Picture], beside trace: String, golden: String, run: String) -> [Difference] {
        let folder = folder(of: trace)
        let before = TraceFrames.frames(in: golden), after = TraceFrames.frames(in: run)
        var differences: [Difference] = []
        for picture in pictures {
            let path = "\(folder)/\(picture.fileName)"
            guard let data = FileManager.default.contents(atPath: path) else {
                differences.append(Difference(picture: picture, golden: nil, diff: nil, how: "no golden picture \(path) (write it with --update)",
                                              moved: "", review: ""))
                continue
            }
            let expected: RGBAImage, actual: RGBAImage
            do {
                expected = try RGBAImage(png: [UInt8](data))
                actual = try RGBAImage(png: picture.png)
            } catch {
                differences.append(Difference(picture: picture, golden: nil, diff: nil, how: "cannot read a picture: \(error)", moved: "", review: ""))
                continue
            }
            let key = "\(picture.app) \(picture.adapter)"
            let moved = TraceFrames.changes(before[picture.step]?[key] ?? [:], after[picture.step]?[key] ?? [:])
            let stem = String(picture.fileName.dropLast(4))
            if expected.width != actual.width || expected.height != actual.height {
                differences.append(Difference(
                    picture: picture, golden: [UInt8](data), diff: nil,
                    how: "the picture is \(actual.width) x \(actual.height) px, its golden \(expected.width) x \(expected.height)",
                    moved: moved, review: ""))
            } else {
                // The picture of the difference only where there is one: most checks match.
                let diff = PixelDiff.compare(expected, actual, threshold: threshold)
                guard diff.differing > 0, let box = diff.bounds else { continue }
                let drawn = PixelDiff.compare(expected, actual, threshold: threshold, drawing: true).picture?.png
                if let drawn { try? Data(drawn).write(to: URL(fileURLWithPath: "\(folder)/\(stem).diff.png")) }
                differences.append(Difference(
                    picture: picture, golden: [UInt8](data), diff: drawn,
                    how: "\(diff.differing) of \(actual.width * actual.height) pixels differ, in x \(box.x)-\(box.x + box.width), "
                        + "y \(box.y)-\(box.y + box.height) px",
                    moved: moved, review: " (\(stem).actual.png, \(stem).diff.png)"))
            }
            // The run's picture beside its golden, for review (and for --update to take).
            try? Data(picture.png).write(to: URL(fileURLWithPath: "\(folder)/\(stem).actual.png"))
        }
        return differences
    }
}

/// The frames a trace's `layouts APP ADAPTER: element=(x,y,w,h) ...` lines give, by step (0: the start, then a
/// step each `# ` line after it), `APP ADAPTER` and element; and what changed between two of them.
enum TraceFrames {
    static func frames(in trace: String) -> [Int: [String: [String: Rect]]] {
        var steps: [Int: [String: [String: Rect]]] = [:]
        var step = -1
        for line in trace.split(separator: "\n") {
            if line.hasPrefix("# ") { step += 1; continue }
            guard line.hasPrefix("layouts "), let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[line.index(line.startIndex, offsetBy: 8)..<colon])
            var frames: [String: Rect] = [:]
            for item in line[line.index(after: colon)...].split(separator: " ") {
                guard let equals = item.lastIndex(of: "="), item.hasSuffix(")") else { continue }
                let numbers = item[item.index(equals, offsetBy: 2)..<item.index(before: item.endIndex)].split(separator: ",").compactMap { Double($0) }
                guard numbers.count == 4 else { continue }
                frames[String(item[..<equals])] = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            }
            steps[max(step, 0), default: [:]][key] = frames
        }
        return steps
    }

    /// What moved between two reports' frames, as a person reads it: `sidebar: x 374 -> 0, width 320 -> 507;
    /// header: height 64 -> 80`, at most 8 elements.
    static func changes(_ old: [String: Rect], _ new: [String: Rect]) -> String {
        var changes: [String] = []
        for name in Set(old.keys).union(new.keys).sorted() {
            switch (old[name], new[name]) {
            case (let a?, let b?) where a != b:
                let parts = [("x", a.x, b.x), ("y", a.y, b.y), ("width", a.width, b.width), ("height", a.height, b.height)]
                    .filter { $0.1 != $0.2 }.map { "\($0.0) \($0.1.compact) -> \($0.2.compact)" }
                changes.append("\(name): " + parts.joined(separator: ", "))
            case (nil, let b?): changes.append("\(name): new at (\(b.x.compact), \(b.y.compact), \(b.width.compact), \(b.height.compact))")
            case (_?, nil): changes.append("\(name): gone")
            default: break
            }
        }
        guard !changes.isEmpty else { return "no reported frame moved: what changed is inside them (colours, text, pictures)" }
        let shown = changes.prefix(8).joined(separator: "; ")
        return "the frames say " + shown + (changes.count > 8 ? "; and \(changes.count - 8) more" : "")
    }
}
