import Foundation
import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// The profiles of the devices from 2022 on, against the reference's table (`Fixtures/devices-2022.md`, copied
/// unchanged from the shared reference): screen, scale, safe areas in both orientations, landscape size classes,
/// confidence; and the iPads' derived Split View widths.
@Suite struct RecentDeviceTests {
    struct Row {
        let id: String
        let portrait: Size
        let scale: Double
        let portraitSafe: EdgeInsets
        let landscapeSafe: EdgeInsets
        let landscape: (SizeClass, SizeClass)
        let confidence: String
    }

    static func rows() throws -> [Row] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/devices-2022.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func numbers(_ s: Substring) -> [Double] { s.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) } }
        func sizeClass(_ s: Substring) -> SizeClass { s.trimmingCharacters(in: .whitespaces) == "R" ? .regular : .compact }
        return text.split(separator: "\n").filter { $0.hasPrefix("| iphone") || $0.hasPrefix("| ipad") }.map { line in
            let c = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let screen = numbers(Substring(c[3])), p = numbers(Substring(c[5])), l = numbers(Substring(c[6]))
            let classes = c[7].split(separator: "/")
            return Row(id: c[1], portrait: Size(width: screen[0], height: screen[1]), scale: Double(c[4])!,
                       portraitSafe: EdgeInsets(top: p[0], left: p[1], bottom: p[2], right: p[3]),
                       landscapeSafe: EdgeInsets(top: l[0], left: l[1], bottom: l[2], right: l[3]),
                       landscape: (sizeClass(classes[0]), sizeClass(classes[1])), confidence: String(c[8].prefix(1)))
        }
    }

    @Test func everyRowHasAProfileThatSaysWhatTheTableSays() throws {
        let catalog = try ProfileLoader.catalog()
        let rows = try Self.rows()
        #expect(rows.count == 14)
        for row in rows {
            let profile = try catalog.profile(row.id)
            #expect(profile.screenSize(.portrait) == row.portrait, "\(row.id)")
            #expect(profile.scale == row.scale, "\(row.id)")
            #expect(profile.table(.portrait).safeArea == row.portraitSafe, "\(row.id) portrait safe area")
            #expect(profile.table(.landscapeLeft).safeArea == row.landscapeSafe, "\(row.id) landscape safe area")
            #expect(profile.table(.landscapeLeft).widths[.full]?.horizontal == row.landscape.0, "\(row.id) landscape H")
            #expect(profile.table(.landscapeLeft).vertical == row.landscape.1, "\(row.id) landscape V")
            #expect(profile.idiom == (row.id.hasPrefix("iphone") ? .phone : .pad), "\(row.id)")
            let confidence = ["H": "high", "M": "medium", "L": "low"][row.confidence]
            // "H (size), M (insets)" rows are medium as a whole: the profile is as sure as its least sure part.
            #expect(profile.confidence == confidence || (row.id.contains("-m4") && profile.confidence == "medium"), "\(row.id)")
            #expect(profile.inconsistencies().isEmpty, "\(row.id): \(profile.inconsistencies())")
            #expect(profile.gamut == (row.id == "ipad-11" ? .srgb : .p3), "\(row.id)")
        }
    }

    /// The one public derivation of the new iPads' Split View widths: landscape 1/3 = 375, 1/2 = (long - 10) / 2,
    /// 2/3 = long - 385; portrait 1/3 = 320 (375 on the 13-inch), 2/3 = short - 10 - 1/3.
    @Test func theIPadsSplitWidthsFollowTheDerivation() throws {
        let catalog = try ProfileLoader.catalog()
        for row in try Self.rows() where row.id.hasPrefix("ipad") {
            let profile = try catalog.profile(row.id)
            let (short, long) = (row.portrait.width, row.portrait.height)
            let landscape = profile.table(.landscapeLeft).widths, portrait = profile.table(.portrait).widths
            #expect(landscape[.oneThird]?.width == 375 && landscape[.half]?.width == (long - 10) / 2, "\(row.id)")
            #expect(landscape[.twoThirds]?.width == long - 385, "\(row.id)")
            let third: Double = short >= 1024 ? 375 : 320
            #expect(portrait[.oneThird]?.width == third && portrait[.twoThirds]?.width == short - 10 - third, "\(row.id)")
            #expect(portrait[.half] == nil, "no 50/50 split in portrait")
        }
    }
}
