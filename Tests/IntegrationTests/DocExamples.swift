// The Swift examples of the documents, compiled here as they are written (DocsTests checks that each line of a
// document's Swift block is in this file or quoted from the file it names).
//
// docs/traitctl.md, "A test fixture in one line": a Swift Testing suite for `traitctl run -- swift test`. It
// needs the session bus that traitctl run makes, so it is compiled here, not run.
import TraitClient
import Testing

@Suite(.disabled("an example for `traitctl run -- swift test`: it needs the session bus traitctl run makes"))
struct RotationTests {
@Test func portraitMakesMailCompact() async throws {
    let client = try TraitClient(bus: .session)
    try await client.rotate(to: .portrait)
    #expect(try await client.state().window("mail")?.horizontalSizeClass == .compact)
}
}
