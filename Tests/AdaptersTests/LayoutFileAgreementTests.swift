import Adapters
import Foundation
import Layout
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// Each layout file under Config/layouts that has a built-in Swift twin gives the same frames and extras as the
/// twin (default settings) for every window of every device profile (iPads and iPhones), offered orientation and
/// arrangement, as the adapter host would see it.
@Suite struct LayoutFileAgreementTests {
    static func fileAdapter(_ name: String) throws -> FileAdapter {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/layouts/\(name)")
        let document = try LayoutParser.parse(try String(contentsOf: url, encoding: .utf8), file: url.path)
        return FileAdapter(document: document, name: name, app: try #require(document.app), path: url.path)
    }

    /// Every window the simulation can show, as the adapter host's `WindowContext`.
    static func windows() throws -> [(what: String, context: WindowContext)] {
        let catalog = try ProfileLoader.catalog()
        var result: [(String, WindowContext)] = []
        for id in catalog.ids {
            let profile = catalog.profiles[id]!
            for orientation in profile.orientations {
                for arrangement in profile.offeredArrangements(orientation) {
                    let geometry = DisplayGeometry(profile: profile, orientation: orientation, arrangement: arrangement)
                    var windows = [(Role.primary, geometry.primary.frame, geometry.primary.horizontal)]
                    if let s = geometry.secondary { windows.append((s.role, s.frame, s.horizontal)) }
                    windows.append((.pip, geometry.pip, .compact))
                    for (role, frame, horizontal) in windows {
                        var traits = geometry.traits(horizontal: horizontal)
                        if role == .pip { traits.verticalSizeClass = .compact }
                        let context = WindowContext(
                            width: frame.width, height: frame.height, traits: traits, orientation: orientation,
                            screenWidth: geometry.screen.width, screenHeight: geometry.screen.height,
                            safeArea: geometry.safeArea(of: frame, role: role))
                        result.append(("\(id) \(orientation.rawValue) \(arrangement.rawValue) \(role.rawValue) \(frame.size)", context))
                    }
                }
            }
        }
        return result
    }

    @Test(arguments: [("book-pages.layout", "book-pages"), ("split-columns.layout", "split-columns"),
                      ("support-panel.layout", "support-panel")])
    func theFileAgreesWithItsSwiftTwinEverywhere(file: String, builtIn: String) throws {
        let adapter = try Self.fileAdapter(file)
        let twin = try #require(BuiltInAdapter.all.first { $0.name == builtIn }).make(app: adapter.app)
        let windows = try Self.windows()
        // 12 iPads: (2 landscapes x 5 + 2 portraits x 4) arrangements; 18 iPhones: 3 orientations x full. Each with
        // its primary, its secondary or Slide Over window where there is one, and a PiP window.
        #expect(windows.count == 12 * (2 * (5 * 3 - 1) + 2 * (4 * 3 - 1)) + 18 * 3 * 2)
        var kinds: Set<String> = []
        for (what, context) in windows {
            let fromFile = adapter.layout(context)
            let fromSwift = twin.layout(context)
            #expect(fromFile == fromSwift, "\(file) \(what)")
            if case .laidOut(let frames, let extras, _, _, _, _, _, _) = fromSwift {
                kinds.insert(frames.keys.sorted().joined(separator: "+") + " " + extras.keys.sorted().map { "\($0)=\(extras[$0]!)" }
                    .filter { !$0.hasPrefix("ratio=") }.joined(separator: " "))
            }
        }
        // The cases are not all alike: every branch of the Swift adapter is taken somewhere.
        #expect(kinds.count >= 2, "\(kinds)")
    }
}
