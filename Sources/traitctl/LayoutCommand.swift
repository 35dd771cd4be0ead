import ArgumentParser
import Foundation
import Layout
import LayoutJudge
import TraitConfig
import TraitModel
import Vocabulary

/// `traitctl layout solve|check`: the constraint engine on layout files, without the daemon.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout", abstract: "Solve, check or draw a layout file (*.layout) without the daemon.",
        subcommands: [Solve.self, Check.self, Matrix.self])

    /// Reads and parses a layout file; failures exit 66 (cannot read) or 65 (syntax, with file:line:column).
    static func load(_ path: String) throws -> LayoutDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("traitctl: cannot read \(path)\n".utf8))
            throw ExitCode(66)
        }
        do {
            return try LayoutParser.parse(String(decoding: data, as: UTF8.self), file: path)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(65)
        }
    }
}

extension LayoutCommand {
    struct Solve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Solve a layout for one container size; print the frames as JSON.",
            discussion: """
                Prints {"frames": {"NAME": [x, y, width, height], ...}, "hidden": [...], "ambiguous": [...]} and exits 0. \
                A conflict between required constraints exits 2 with the constraints on stderr; a file error exits 65 \
                with file:line:column. Without --w, a width of 678 pt or more is regular (the narrowest regular split \
                width in the iPad tables); without --orientation, wider than tall is landscape.
                """)
        @Argument(help: "The layout file.") var file: String
        @Option(help: ArgumentHelp("The container size, such as 1024x768.", valueName: "WxH")) var size: String
        @Option(help: "The horizontal size class: compact or regular.") var w: String?
        @Option(help: "The vertical size class: compact or regular.") var h: String?
        @Option(help: "portrait or landscape.") var orientation: String?
        @Option(name: .customLong("set"), help: ArgumentHelp(
            "A display-wide setting, as traitctl set names it: appearance=dark, direction=right-to-left, content-size=accessibility-large (repeat for more).",
            valueName: "word=value"))
        var settings: [String] = []

        func run() throws {
            let parts = size.lowercased().split(separator: "x")
            guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width.isFinite,
                  height.isFinite, width >= 0, height >= 0, width <= 100_000, height <= 100_000
            else { throw ValidationError("--size must be WIDTHxHEIGHT in points, such as 1024x768 (0 to 100000 each)") }
            var environment = LayoutEnvironment(width: width, height: height)
            if let w {
                guard let value = SizeClass(rawValue: w) else { throw ValidationError("--w must be compact or regular") }
                environment.traits.horizontalSizeClass = value
            }
            if let h {
                guard let value = SizeClass(rawValue: h) else { throw ValidationError("--h must be compact or regular") }
                environment.traits.verticalSizeClass = value
            }
            if let orientation {
                // A layout tells landscape from portrait, not one side from the other.
                guard ["portrait", "landscape"].contains(orientation) else {
                    throw ValidationError("--orientation must be portrait or landscape")
                }
                environment.orientation = orientation == "landscape" ? .landscapeLeft : .portrait
            }
            for setting in settings {
                let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let trait = DisplayTrait.withWord(parts[0]) else {
                    throw ValidationError("--set takes WORD=VALUE with WORD one of: \(DisplayTrait.wordList); got '\(setting)'")
                }
                guard let value = trait.value(typed: parts[1]) else {
                    throw ValidationError("unknown \(trait.word) '\(parts[1])'; expected one of: \(trait.valueList)")
                }
                environment.traits.display[trait] = value
            }
            let document = try LayoutCommand.load(file)
            do {
                let result = try document.solve(in: environment)
                let json: [String: Any] = [
                    "frames": result.frames.mapValues(\.values), "hidden": result.hidden, "ambiguous": result.ambiguous,
                ]
                print(try jsonLine(json))
            } catch let error as LayoutError {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(2)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Solve a layout for every window of every device profile, orientation and arrangement.",
            discussion: """
                Every iPad and iPhone profile; each window with its size classes, idiom, whether it is narrower than \
                the screen (the split condition) and its safe area (top,left,bottom,right), as the adapter host \
                would lay it out. Prints one line per case with its conflicts and ambiguities, and the problems the \
                daemon's layout checks find in its frames (the same rules, the same sentences); exits 2 when any case \
                conflicts, 1 when any has a layout problem. Where the file depends on display-wide settings (a section on dark, right-to-left, \
                high-contrast, bold-text or content-size; leading or trailing anchors; the body text size), every case \
                is solved in each of their values too (the text size at its smallest, default, largest and every \
                category a section names); the SETTINGS column says which.
                """)
        @Argument(help: "The layout file.") var file: String
        @OptionGroup var rules: LayoutChecksOptions

        func run() throws {
            let document = try LayoutCommand.load(file)
            let checks = try rules.checks()
            var conflicts = 0, ambiguous = 0, withProblems = 0
            let cases = try LayoutCase.all(settings: document.traitCombinations)
            let deviceColumn = max(6, cases.map(\.device.count).max() ?? 0)
            let settingsColumn = max(8, cases.map(\.settingsText.count).max() ?? 0)
            print(["DEVICE".padded(deviceColumn), "ORIENTATION ", "ARRANGEMENT      ", "WINDOW     ", "SIZE        ", "CLASSES ",
                   "SAFE AREA  ", "SETTINGS".padded(settingsColumn), "RESULT"].joined(separator: " "))
            for item in cases {
                let result: String
                switch item.solve(document) {
                case .success(let solved):
                    let problems = solved.ambiguous.isEmpty ? item.problems(of: solved, in: document, checks: checks) : []
                    if !solved.ambiguous.isEmpty {
                        ambiguous += 1
                        result = "ambiguous: " + solved.ambiguous.joined(separator: ", ")
                    } else if !problems.isEmpty {
                        withProblems += 1
                        result = problems.map { "\($0.rule) \($0.element): \($0.message)" }.joined(separator: " | ")
                    } else {
                        result = "ok"
                    }
                case .failure(let lines):
                    conflicts += 1
                    result = "conflict: " + lines.joined(separator: " | ")
                }
                print([item.device.padded(deviceColumn), item.orientation.padded(12), item.arrangement.padded(17), item.role.padded(11),
                       item.size.padded(12), item.classes.padded(8), item.safeArea.padded(11),
                       item.settingsText.padded(settingsColumn), result].joined(separator: " "))
            }
            let count = cases.count
            print("\(count) cases: \(count - conflicts - ambiguous - withProblems) ok, \(conflicts) with conflicts, "
                  + "\(ambiguous) ambiguous, \(withProblems) with layout problems")
            if conflicts > 0 { throw ExitCode(2) }
            if withProblems > 0 { throw ExitCode(1) }
        }
    }
}

/// One window of one (device, orientation, arrangement): what `layout check` and `layout matrix` solve.
struct LayoutCase {
    let device: String
    let orientation: String
    let arrangement: String
    let role: String
    /// The window as the adapter host sees it: size, traits, idiom, split or not, and safe area.
    let environment: LayoutEnvironment

    var width: Double { environment.width }
    var height: Double { environment.height }
    var traits: TraitCollection { environment.traits }
    var size: String { "\(width.compact)x\(height.compact)" }
    var classes: String {
        "\(traits.horizontalSizeClass.rawValue.prefix(1).uppercased())/\(traits.verticalSizeClass.rawValue.prefix(1).uppercased())"
    }
    /// `top,left,bottom,right`.
    var safeArea: String { environment.safeArea.values.map(\.compact).joined(separator: ",") }
    /// The display-wide settings not at their default, `dark right-to-left content-size=extra-small`; `default`.
    var settingsText: String {
        let display = environment.traits.display
        let words = DisplayTrait.windowTraits.filter { display[$0] != $0.defaultValue }.map { trait in
            trait.conditions.first { $0.value == display[trait] }?.key ?? "\(trait.word)=\(display[trait])"
        }
        return words.isEmpty ? "default" : words.joined(separator: " ")
    }

    /// The solved layout, or the conflicting constraints.
    enum Outcome { case success(LayoutResult), failure([String]) }

    /// What the daemon's layout checks find in `solved`, reported as the adapter host reports a layout file
    /// (its views' frames and kinds) against this window: the same rules, in the same words.
    func problems(of solved: LayoutResult, in document: LayoutDocument, checks: LayoutChecks) -> [LayoutProblem] {
        let frames = solved.frames.filter { document.views.contains($0.key) }
        guard let layout = try? ReportedLayout(frames: frames, kinds: document.kinds.filter { frames[$0.key] != nil }) else { return [] }
        let window = PublishedWindow(size: Size(width: width, height: height), safeAreaInsets: environment.safeArea,
                                     idiom: traits.idiom)
        return LayoutJudge.problems(of: layout, adapter: "layout", in: window, checks: checks)
    }

    func solve(_ document: LayoutDocument) -> Outcome {
        do {
            return .success(try document.solve(in: environment))
        } catch LayoutError.conflict(_, let lines) {
            return .failure(lines)
        } catch {
            return .failure(["\(error)"])
        }
    }

    /// Every window of every device profile (iPads, then iPhones), in landscape and portrait, in every
    /// arrangement the device offers: the primary, and the secondary or Slide Over window where there is one.
    /// In each of `settings` (the display-wide settings a layout depends on; the defaults only when none).
    static func all(settings: [DisplayTraits] = [DisplayTraits()]) throws -> [LayoutCase] {
        let catalog = try ProfileLoader.catalog()
        var cases: [LayoutCase] = []
        let ids = catalog.ids.sorted { (catalog.profiles[$0]!.idiom == .pad ? 0 : 1, $0) < (catalog.profiles[$1]!.idiom == .pad ? 0 : 1, $1) }
        for id in ids {
            let profile = catalog.profiles[id]!
            for orientation in [Orientation.landscapeLeft, .portrait] {
                for arrangement in profile.offeredArrangements(orientation) {
                    let geometry = DisplayGeometry(profile: profile, orientation: orientation, arrangement: arrangement)
                    var windows = [(Role.primary, geometry.primary.frame, geometry.primary.horizontal)]
                    if let s = geometry.secondary { windows.append((s.role, s.frame, s.horizontal)) }
                    for display in settings {
                        for (role, frame, horizontal) in windows {
                            var traits = geometry.traits(horizontal: horizontal)
                            traits.display = display.windowTraits
                            let environment = LayoutEnvironment(
                                width: frame.width, height: frame.height, traits: traits, orientation: orientation,
                                isSplit: frame.width < geometry.screen.width, safeArea: geometry.safeArea(of: frame, role: role))
                            cases.append(LayoutCase(device: id, orientation: orientation.isLandscape ? "landscape" : "portrait",
                                                    arrangement: arrangement.rawValue, role: role.rawValue, environment: environment))
                        }
                    }
                }
            }
        }
        return cases
    }
}

extension LayoutCase {
    /// Free-form windows (Stage Manager, windowed apps) `widths` wide and `height` tall: a column each (named
    /// by its width), an iPad window whose horizontal size class follows `SizeClass.narrowestRegularWidth`,
    /// touching no screen edge; in each of `settings`.
    static func freeForm(widths: [Double], height: Double, settings: [DisplayTraits] = [DisplayTraits()]) -> [LayoutCase] {
        settings.flatMap { display in
            widths.map { width in
                var traits = LayoutEnvironment.defaultTraits(width: width, height: height)
                traits.display = display.windowTraits
                return LayoutCase(device: "free-form window", orientation: "\(height.compact) pt tall",
                                  arrangement: "\(width.compact) pt", role: "free-form",
                                  environment: LayoutEnvironment(width: width, height: height, traits: traits))
            }
        }
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String { padding(toLength: max(width, count), withPad: " ", startingAt: 0) }
}

/// `--target-size` and `--off`: the layout checks a run makes (the daemon's `layout-checks:`), so that a layout
/// file is judged offline by the rules its suite uses.
struct LayoutChecksOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The rule small-target holds controls to: apple-44pt (the default) or wcag-24px.", valueName: "rule"))
    var targetSize: String = LayoutChecks.TargetSize.apple44pt.rawValue
    @Option(name: .customLong("off"), help: ArgumentHelp("A rule to leave out, or a rule for one element ('small-target button:Close'); repeat for more.",
                                                        valueName: "rule"))
    var off: [String] = []

    func checks() throws -> LayoutChecks {
        guard let size = LayoutChecks.TargetSize(rawValue: targetSize) else {
            throw ValidationError("--target-size \(targetSize.printable): expected "
                                  + LayoutChecks.TargetSize.allCases.map(\.rawValue).joined(separator: " or "))
        }
        var rules: Set<LayoutRule> = [], elements: Set<LayoutChecks.ElementRule> = []
        for word in off {
            if let rule = LayoutRule(rawValue: word) {
                rules.insert(rule)
            } else if let element = LayoutChecks.ElementRule(parsing: word) {
                elements.insert(element)
            } else {
                throw ValidationError("--off \(word.printable): expected a rule, or a rule and an element ('small-target button:Close'); "
                                      + "the rules: " + LayoutRule.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        return LayoutChecks(targetSize: size, off: rules, offElements: elements)
    }
}
