import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `traitd-adapters --screenshots`: each bridge writes its window's real pixels before each report, names the
/// file in the report's extra `screenshot`, and `traitctl render` draws it inside the window.
@Suite(.serialized) struct BridgeScreenshotTests {
    static let page = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/adaptive.html")

    /// A PNG's width and height, from its header.
    func size(ofPNG path: String) throws -> (Int, Int) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(data.count > 24 && data[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(path) is no PNG")
        let number = { (at: Int) in data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func bothBridgesSendTheirPixelsAndRenderDrawsThem() async throws {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--screenshots", "--web", "mail=file://\(Self.page.path)",
                                             "--app", "notes=gnome-calculator"])
        try await recorder.until("both bridges' first layouts", timeout: 90) {
            let web = try? await recorder.layouts(of: "mail").frames["web"]
            let desktop = try? await recorder.layouts(of: "notes").frames["desktop"]
            return web != nil && desktop != nil
        }
        // Split View halves: 507 x 768 pt each, 1014 x 1536 device pixels at the iPad's 2x.
        let done = try await recorder.transition(of: "notes", "split-half") { try await recorder.client.setArrangement(.splitHalf) }
        #expect(done.reported == ["desktop"], "\(done)")
        let state = try await recorder.client.state()
        let web = try #require(state.window("mail")?.screenshots["web"], "\(String(describing: state.window("mail")))")
        let desktop = try #require(state.window("notes")?.screenshots["desktop"])
        let webSize = try size(ofPNG: web), desktopSize = try size(ofPNG: desktop)
        #expect(webSize == (1014, 1536) && desktopSize == (1014, 1536), "\(webSize) \(desktopSize)")
        // The pictures are the apps' own: the page drawn dark is another picture.
        let light = try Data(contentsOf: URL(fileURLWithPath: web))
        _ = try await recorder.transition(of: "mail", "dark") { try await recorder.client.setTraits([.appearance: "dark"]) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: web)) != light)
        // render draws both, inside their windows.
        let svg = try await fixture.traitctl(["render", "--svg", "-"])
        #expect(svg.status == 0 && svg.stdout.components(separatedBy: "<image ").count == 3, "\(svg.stderr)")
        let drawn = svg.stdout.contains(#"<image x="36" y="70" width="507" height="768" preserveAspectRatio="none" href="data:image/png;base64,"#)
        #expect(drawn, "\(svg.stdout.prefix(2000))")
        withExtendedLifetime((fixture, host)) {}
    }
}
