import ArgumentParser
import Foundation
import Pictures
import TraitClient
import TraitModel
import Vocabulary

/// `traitctl render --svg FILE [--png FILE]`: the simulated screen to scale, 1 px a point.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the simulated screen to scale: windows, divider and every adapter's reported frames.",
        discussion: """
            One SVG pixel is one point. The picture shows the device outline, each window on screen with its app, \
            role, frame and size classes, its safe area (dashed, green), the Split View divider, and each adapter's latest frames (from the window's \
            Layouts property) labelled ADAPTER: ELEMENT. A window whose adapter's report names a screenshot (the \
            bridges of traitd-adapters --screenshots: a web page's or a desktop app's real pixels) shows it under \
            the frames. --png converts the same picture with rsvg-convert (Debian's librsvg2-bin, which make deps \
            installs).
            """)
    @OptionGroup var options: BusOptions
    @Option(help: ArgumentHelp("Write the SVG here (- for standard output).", valueName: "file")) var svg: String?
    @Option(help: ArgumentHelp("Write a PNG here (through rsvg-convert; - for standard output).", valueName: "file")) var png: String?
    @Option(help: ArgumentHelp("The PNG's pixels a point: 0.5 draws it at half size (the SVG stays one pixel a point).",
                               valueName: "factor")) var zoom: Double = 1

    func validate() throws {
        if svg == nil && png == nil { throw ValidationError("give --svg FILE, --png FILE, or both") }
        if !(zoom > 0 && zoom <= 8) { throw ValidationError("--zoom \(zoom): give a factor above 0 and at most 8") }
    }

    func run() async throws {
        try await reportingFailures {
            let (state, screens) = try await options.withClient { client in
                let state = try await client.state()
                return (state, try await DisplayList.screens(state, client))
            }
            let externals = screens.dropFirst().map { ScreenPicture.External(id: $0.id, profile: $0.profile, size: $0.size, scale: $0.scale) }
            do {
                try ScreenPicture(state, externals: Array(externals)).picture.write(svg: svg, png: png, zoom: zoom)
            } catch {
                throw Failure(error)
            }
        }
    }
}
