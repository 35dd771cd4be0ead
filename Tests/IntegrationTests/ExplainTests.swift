import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `Explain` on a window, through gdbus and `traitctl explain`: a compact Split View side, a free-form window,
/// and an app with no window.
@Suite struct ExplainTests {
    @Test func aCompactSplitViewSideSaysWhereItsWidthAndClassComeFrom() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        _ = try await recorder.transition(of: "mail", "split-one-third") { try await recorder.client.setArrangement(.splitOneThird) }
        let gdbus = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", TraitClient.windowPath("mail"),
                                                    "--method", "org.traitd.Layout1.Window.Explain"])
        #expect(gdbus.status == 0, "\(gdbus)")
        #expect(gdbus.stdout.contains("('horizontalSizeClass', \"compact: the device's landscape-left table gives its one-third window (320 pt) a compact width"), "\(gdbus.stdout)")
        let text = try await fixture.traitctl(["explain", "mail"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "frame: 320 x 768 pt at (0, 0): the primary side of split-one-third on the iPad 9.7-inch, iPad mini 1-5 "
                + "(profile ipad-9.7, confidence high) in landscape-left; its width is the device table's one-third width (320 pt), its height the screen's", "\(text)")
        #expect(lines.contains { $0.hasPrefix("safeArea: top 20 (the window touches the screen's top edge, whose inset is 20)") })
        #expect(lines.contains { $0.hasPrefix("lastTransition: transition 1: size 320 x 768 pt (reason arrangement, 0.3 s); horizontalSizeClass regular -> compact; windowWidthSizeClass medium -> compact; completed: reported []") }, "\(text)")
        #expect(lines.contains("layouts: no adapter is registered for it") && lines.contains("problems: none in the latest reports"))
    }

    @Test func aFreeFormWindowNamesTheThresholdAndAGoneAppIsNamed() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        for id in try await recorder.client.setWindowing(.stageManager) { _ = try await recorder.completion(of: id) }
        _ = try await recorder.transition(of: "mail", "a narrow frame") {
            try await recorder.client.setFrame(Rect(x: 100, y: 100, width: 500, height: 500), of: "mail")
        }
        let explanation = try await recorder.client.explain("mail")
        #expect(explanation.first { $0.topic == "horizontalSizeClass" }?.text
                == "compact: a free-form window is regular from 678 pt wide (the narrowest regular Split View width in the iPad tables), and this one is 500 pt")
        #expect(explanation.first { $0.topic == "safeArea" }?.text.hasPrefix("top 0 (the window does not touch the screen's top edge)") == true)
        let json = try await fixture.traitctl(["explain", "mail", "--json"])
        #expect(json.stdout.hasPrefix("[{\"text\":"), "\(json)")
        let gone = try await fixture.traitctl(["explain", "maps"])
        #expect(gone.status == 1 && gone.stderr.contains("maps has no window"), "\(gone)")
    }
}
