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
            dimension's values no window had.
            """)
    @OptionGroup var options: BusOptions
    @Option(help: ArgumentHelp("Add up these files of modes (from --json) instead of asking a daemon.", valueName: "file"))
    var from: [String] = []
    @Flag(help: "Print the modes as JSON: [[device class, orientation, placement, horizontal, vertical, [settings]], ...].")
    var json = false

    func run() async throws {
        var modes = Set<DrivenMode>()
        if from.isEmpty {
            modes = Set(try await options.withClient { try await $0.coverage() })
        }
        for file in from {
            do {
                modes.formUnion(try Self.read(file))
            } catch {
                FileHandle.standardError.write(Data("traitctl: \(file): \(error)\n".utf8))
                throw ExitCode(65)
            }
        }
        if json {
            print(try jsonLine(modes.sorted().map { $0.words + [$0.settings.map(\.description)] as [Any] }))
        } else {
            print(CoverageTable.lines(modes).joined(separator: "\n"))
        }
    }

    /// The modes in a file `--json` wrote.
    static func read(_ file: String) throws -> [DrivenMode] {
        guard let data = FileManager.default.contents(atPath: file) else { throw PictureError("cannot read the file") }
        guard let list = try? JSONSerialization.jsonObject(with: data) as? [[Any]] else {
            throw PictureError("expected a JSON list of modes, each [device class, orientation, placement, horizontal, vertical, [settings]]")
        }
        return try list.enumerated().map { index, item in
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
