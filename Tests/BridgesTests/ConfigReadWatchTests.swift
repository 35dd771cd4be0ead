@testable import Bridges
import Foundation
import Testing

/// The watch that tells the desktop bridge a Qt app has read its theme's file: an open of the named file is seen,
/// however soon after the watch began; an open of another file, or none, is not, and the wait ends at its limit.
@Suite struct ConfigReadWatchTests {
    @Test func anOpenOfTheFileIsSeenAndNothingElseIs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("qt5ct.conf"), other = folder.appendingPathComponent("qt5ct.conf.new")
        try Data("[Fonts]\n".utf8).write(to: file)
        try Data("[Fonts]\n".utf8).write(to: other)

        let watch = try ConfigReadWatch(folder: folder.path)
        _ = try Data(contentsOf: other)
        #expect(await watch.opened("qt5ct.conf", within: .milliseconds(200)) == false)
        _ = try Data(contentsOf: file)
        #expect(await watch.opened("qt5ct.conf", within: .seconds(30)) == true)
        #expect(throws: (any Error).self) { try ConfigReadWatch(folder: folder.appendingPathComponent("missing").path) }
    }
}
