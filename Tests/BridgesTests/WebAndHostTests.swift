@testable import Bridges
import Adapters
import Foundation
import Testing
import TraitProtocol
import Vocabulary

/// The web bridge as a library (`WebPage` on a `DevToolsPipe` to Debian's Chromium), without the host's
/// executable or a daemon: a layout asked for straight from the page.
@Suite struct WebPageTests {
    /// The planted contrast page in a 320-pt window: its frames, and the text whose colours stand out too
    /// little (`lowContrast`), named by id or place, with the ratio its size needs.
    @Test func aPageIsLaidOutAndItsLowContrastTextMeasured() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-webpage-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let browser = try DevToolsPipe(log: log)
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../IntegrationTests/Fixtures/web/contrast.html").standardizedFileURL
        let web = WebPage(app: "notes", url: page.absoluteString, browser: browser)
        let result = await web.layout(WindowContext(width: 320, height: 768))
        // `close` waits for the browser to end: on a thread of its own, never one of the cooperative pool's.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                browser.close()
                done.resume()
            }
        }
        guard case .laidOut(let frames, _, let kinds, _, _, _, _, let lowContrast) = result else {
            Issue.record("the page was not laid out: \(result)")
            return
        }
        #expect(frames["faint"]?.width == 320 && kinds["faint"] == .text, "\(frames)")
        #expect(lowContrast.keys.sorted() == ["body>div>p", "faint"], "\(lowContrast)")
        #expect(lowContrast["faint"].map { (2.8...2.9).contains($0.ratio) && $0.required == 4.5 } == true, "\(lowContrast)")
    }
}

/// What the adapter host sends for a layout (`ReportLayout`'s frames and extras), as traitd reads it back.
@Suite struct HostWireTests {
    @Test func aLayoutsMeasuresGoOutAsTheExtrasTraitdReads() throws {
        let result = AdapterResult.laidOut(
            frames: ["title": Rect(x: 0, y: 0, width: 120, height: 20)], extras: ["note": .string("hi")], kinds: ["title": .text],
            clippedText: ["title": ClippedText(cut: .ellipsized, needed: Size(width: 260, height: 20))],
            lowContrast: ["body>p": LowContrast(ratio: 2.5, required: 4.5)])
        let (frames, extras) = AdapterHost.wire(result)
        typealias Keys = Layout1.Window.Extras
        #expect(frames == ["title": Rect(x: 0, y: 0, width: 120, height: 20)])
        #expect(extras["note"] == .string("hi"))
        #expect(try Keys.kindsParameter.decode(#require(extras[Keys.kinds])) == ["title": .text])
        #expect(try Keys.clippedTextParameter.decode(#require(extras[Keys.clippedText]))
                == ["title": ClippedText(cut: .ellipsized, needed: Size(width: 260, height: 20))])
        #expect(try Keys.lowContrastParameter.decode(#require(extras[Keys.lowContrast])) == ["body>p": LowContrast(ratio: 2.5, required: 4.5)])
        // Nothing measured, no key; a failure is its reason and no frames.
        let (_, bare) = AdapterHost.wire(.laidOut(frames: [:], extras: [:]))
        #expect(bare.isEmpty)
        let (none, failed) = AdapterHost.wire(.failed("wide.width >= 600"))
        #expect(none.isEmpty && failed[Keys.error] == .string("wide.width >= 600"))
    }
}
