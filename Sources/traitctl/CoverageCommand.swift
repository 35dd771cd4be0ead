import ArgumentParser
import Foundation
import RunReport
import Pictures
import TraitClient
import Vocabulary

/// `traitctl coverage`: which modes a daemon's windows have been in, and which they never were.
struct Coverage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print which modes the windows were in (device class, orientation, placement, size classes, settings) and which never.",
        discussion: """
            Asks the daemon on --bus (traitd --testing: its Coverage method counts every mode since it started; \
            Reset keeps them), or, with --from, adds up the files --json wrote (the pytest plugin's \
            --traitd-coverage writes one per daemon) without a daemon. A mode is a window's device class (phone, \
            phone-max, pad-mini, pad, pad-13), orientation, placement (a Split View or Slide Over slot, pip, a \
            free-form width band by its share of the screen, monitor), size classes, and the settings away from \
            their defaults (text sizes in bands: smaller, larger, accessibility). After the modes, each \
            dimension's values no window had; then Android's window size classes the windows had and never had, \
            and each breakpoint an app declared, seen applied, not applied, or both (AdaptationCoverage).
            """)
    @OptionGroup var options: BusOptions
    @Option(help: ArgumentHelp("Add up these files of modes (from --json) instead of asking a daemon.", valueName: "file"))
    var from: [String] = []
    @Flag(help: ArgumentHelp("Print the coverage as JSON: {modes: [[device class, orientation, placement, horizontal, vertical, [settings]], ...], windowSizeClasses: [[trait, class], ...], breakpoints: [[app, breakpoint, applied], ...]}."))
    var json = false

    func run() async throws {
        var modes = Set<DrivenMode>(), adapted = Set<DrivenAdaptation>()
        if from.isEmpty {
            try await options.withClient { client in
                modes = Set(try await client.coverage())
                adapted = Set(try await client.adaptationCoverage())
            }
        }
        for file in from {
            do {
                let read = try Self.read(file)
                modes.formUnion(read.modes)
                adapted.formUnion(read.adapted)
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(file): \(error)\n".utf8))
                throw ExitCode(65)
            }
        }
        if json {
            print(try jsonLine(Self.json(modes: modes, adapted: adapted)))
        } else {
            print((CoverageTable.lines(modes) + DrivenAdaptation.lines(adapted)).joined(separator: "\n"))
        }
    }

    /// The coverage as `--json` writes it (and the pytest plugin's files hold it).
    static func json(modes: Set<DrivenMode>, adapted: Set<DrivenAdaptation>) -> [String: Any] {
        let sorted = adapted.sorted()
        return ["modes": modes.sorted().map { $0.words + [$0.settings.map(\.description)] as [Any] },
                "windowSizeClasses": sorted.compactMap(\.windowSizeClass).map { [$0.trait, $0.value] },
                "breakpoints": sorted.compactMap { driven -> [Any]? in
                    guard case .breakpoint(let app, let name, let applied) = driven else { return nil }
                    return [app, name, applied]
                }]
    }

    /// The coverage in a file `--json` wrote: this release's object, or the list of modes alone that earlier
    /// releases wrote.
    static func read(_ file: String) throws -> (modes: [DrivenMode], adapted: [DrivenAdaptation]) {
        guard let data = FileManager.default.contents(atPath: file) else { throw PictureError("cannot read the file") }
        let object = try? JSONSerialization.jsonObject(with: data)
        if let list = object as? [[Any]] { return (try modes(list), []) }
        guard let coverage = object as? [String: Any], let list = coverage["modes"] as? [[Any]] else {
            throw PictureError("expected the JSON traitctl coverage --json writes: {\"modes\": [[device class, orientation, placement, horizontal, vertical, [settings]], ...], \"windowSizeClasses\": [...], \"breakpoints\": [...]}")
        }
        var adapted: [DrivenAdaptation] = []
        for (index, item) in ((coverage["windowSizeClasses"] as? [Any]) ?? []).enumerated() {
            guard let pair = item as? [String], pair.count == 2, let driven = DrivenAdaptation(trait: pair[0], value: pair[1]) else {
                throw PictureError("window size class \(index + 1): expected [windowWidthSizeClass or windowHeightSizeClass, a class of it]")
            }
            adapted.append(driven)
        }
        for (index, item) in ((coverage["breakpoints"] as? [Any]) ?? []).enumerated() {
            guard let triple = item as? [Any], triple.count == 3, let app = triple[0] as? String, let name = triple[1] as? String,
                  let applied = triple[2] as? Bool else {
                throw PictureError("breakpoint \(index + 1): expected [app, breakpoint, applied (true or false)]")
            }
            adapted.append(.breakpoint(app: app, name: name, applied: applied))
        }
        return (try modes(list), adapted)
    }

    private static func modes(_ list: [[Any]]) throws -> [DrivenMode] {
        try list.enumerated().map { index, item in
            let words = item.prefix(5).compactMap { $0 as? String }
            guard item.count == 6, words.count == 5, let settings = item[5] as? [String] else {
                throw PictureError("mode \(index + 1): expected [device class, orientation, placement, horizontal, vertical, [settings]]")
            }
            do {
                return try DrivenMode(words: words, settings: settings)
            } catch {
                throw PictureError("mode \(index + 1): \(error)")
            }
        }
    }
}
