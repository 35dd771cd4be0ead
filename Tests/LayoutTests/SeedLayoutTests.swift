import Foundation
import Layout
import Testing
import Vocabulary

/// The seed layouts under Config/layouts, with the numbers of the seed material.
@Suite struct SeedLayoutTests {
    static func load(_ name: String) throws -> (String, LayoutDocument) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/layouts/\(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        return (text, try LayoutParser.parse(text, file: url.path))
    }

    @Test(arguments: [(1366.0, "regular", 992.0, 374.0), (694, "regular", 347, 347), (678, "regular", 339, 339)])
    func supportPanelInARegularWindow(width: Double, horizontal: String, main: Double, support: Double) throws {
        let (_, layout) = try Self.load("support-panel.layout")
        #expect(layout.app == "mail")
        let traits = TraitCollection.pad(.regular, .regular)
        let result = try layout.solve(width: width, height: 1024, traits: traits)
        #expect(result.frames["main"]?.values == [0, 0, main, 1024])
        #expect(result.frames["support"]?.values == [main, 0, support, 1024])
        #expect(result.hidden.isEmpty && result.ambiguous.isEmpty)
    }

    @Test func supportPanelIsHiddenWhenCompact() throws {
        let (_, layout) = try Self.load("support-panel.layout")
        let traits = TraitCollection.pad(.compact, .regular)
        let result = try layout.solve(width: 507, height: 768, traits: traits)
        #expect(result.frames["main"]?.values == [0, 0, 507, 768])
        #expect(result.frames["support"] == nil && result.hidden == ["support"])
        #expect(result.ambiguous.isEmpty)
    }

    @Test(arguments: [(0.5, 0.5, [490.0, 362, 44, 44]), (0, 0, [20, 20, 44, 44]), (1, 1, [960, 704, 44, 44]),
                      (0.25, 1, [255, 704, 44, 44])])
    func xySliderKnobStaysInsideItsSlider(fx: Double, fy: Double, knob: [Double]) throws {
        let (text, _) = try Self.load("xy-slider.layout")
        let edited = text.replacingOccurrences(of: "metric fx = 0.5", with: "metric fx = \(fx)")
            .replacingOccurrences(of: "metric fy = 0.5", with: "metric fy = \(fy)")
        let layout = try LayoutParser.parse(edited, file: "xy-slider.layout")
        let result = try layout.solve(width: 1024, height: 768, traits: LayoutEnvironment.defaultTraits(width: 1024, height: 768))
        #expect(result.frames["knob"]?.values == knob)
        let slider = try #require(result.frames["slider"]?.values)
        #expect(slider == [20, 20, 984, 728])
        #expect(knob[0] >= slider[0] && knob[0] + knob[2] <= slider[0] + slider[2])
        #expect(knob[1] >= slider[1] && knob[1] + knob[3] <= slider[1] + slider[3])
        #expect(result.ambiguous.isEmpty, "\(result.ambiguous)")
    }
}
