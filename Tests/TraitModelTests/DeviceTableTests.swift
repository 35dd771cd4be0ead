import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// Every (device, orientation, arrangement): frames and size classes exactly as the reference table says.
@Suite struct DeviceTableTests {
    let catalog: DeviceCatalog
    let rows: [ReferenceRow]

    init() throws {
        catalog = try ProfileLoader.catalog()
        rows = try ReferenceTable.rows()
    }

    func simulation(_ device: String, _ orientation: Orientation, _ arrangement: Arrangement) throws -> Simulation {
        let state = DisplayState(device: device, orientation: orientation, arrangement: arrangement,
                                 apps: [.init(name: "left", role: .primary), .init(name: "right", role: .secondary)])
        return try Simulation(catalog: catalog, state: state)
    }

    @Test func everyReferenceModelHasAProfile() {
        #expect(rows.count == 7)
        // The iPads of this table and those of the 2022-on table (RecentDeviceTests), and no other.
        let recent: Set = ["ipad-pro-11-m4", "ipad-pro-13-m4", "ipad-11", "ipad-air-13", "ipad-mini-7"]
        #expect(Set(catalog.ids.filter { catalog.profiles[$0]!.idiom == .pad }) == Set(rows.map(\.id)).union(recent))
    }

    @Test func framesAndSizeClassesMatchTheTable() throws {
        var checked = 0
        for row in rows {
            for orientation in Orientation.allCases {
                let landscape = orientation.isLandscape
                let screen = landscape ? row.screen : Size(width: row.screen.height, height: row.screen.width)
                let table = landscape ? row.landscape : row.portrait
                let full = table[0], twoThirds = table[1]
                let half: (Double, SizeClass)? = landscape ? table[2] : nil
                let oneThird = landscape ? table[3] : table[2], slideOver = landscape ? table[4] : table[3]
                // (arrangement, primary width/class, secondary width/class)
                var cases: [(Arrangement, (Double, SizeClass), (Double, SizeClass)?)] = [
                    (.full, full, nil), (.splitTwoThirds, twoThirds, oneThird), (.splitOneThird, oneThird, twoThirds),
                    (.slideOver, full, slideOver),
                ]
                if let half { cases.append((.splitHalf, half, half)) }
                for (arrangement, primary, secondary) in cases {
                    let sim = try simulation(row.id, orientation, arrangement)
                    #expect(sim.state.arrangement == arrangement, "\(row.id) \(orientation) \(arrangement) offered")
                    let left = try #require(sim.windows["left"])
                    let right = try #require(sim.windows["right"])
                    let what = "\(row.id) \(orientation.rawValue) \(arrangement.rawValue)"
                    #expect(sim.geometry.screen == screen, "\(what) screen")
                    #expect(left.frame == Rect(x: 0, y: 0, width: primary.0, height: screen.height), "\(what) primary frame")
                    #expect(left.traits.horizontalSizeClass == primary.1, "\(what) primary class")
                    for window in [left, right] {
                        #expect(window.traits.verticalSizeClass == .regular, "\(what): vertical is always regular on iPad")
                        #expect(window.traits.idiom == .pad && window.traits.displayScale == 2)
                    }
                    switch arrangement {
                    case .full:
                        #expect(right.state == .background, "\(what): the secondary waits in the background")
                    case .slideOver:
                        let (width, horizontal) = secondary!
                        let inset = try #require(catalog.profiles[row.id]).slideOverHeightInset
                        #expect([40.0, 48].contains(inset))
                        #expect(right.role == .slideOver)
                        #expect(right.frame == Rect(x: screen.width - width, y: inset / 2, width: width,
                                                    height: screen.height - inset), "\(what) slide-over frame")
                        #expect(right.traits.horizontalSizeClass == horizontal, "\(what) slide-over class")
                    default:
                        let (width, horizontal) = secondary!
                        #expect(right.frame == Rect(x: primary.0 + 10, y: 0, width: width, height: screen.height),
                                "\(what) secondary frame")
                        #expect(right.frame.x + right.frame.width == screen.width, "\(what) reaches the right edge")
                        #expect(right.traits.horizontalSizeClass == horizontal, "\(what) secondary class")
                        #expect(right.role == .secondary && right.state == .active)
                    }
                    checked += 1
                }
            }
        }
        // 7 models x (2 landscape orientations x 5 + 2 portrait orientations x 4)
        #expect(checked == 7 * (2 * 5 + 2 * 4))
    }

    @Test func splitHalfIsNotOfferedInPortrait() throws {
        for id in rows.map(\.id) {
            var sim = try simulation(id, .portrait, .splitTwoThirds)
            let serial = sim.serial
            #expect(throws: ModelError.notOffered(
                "\(id) does not offer split-half in portrait; offered: full, split-two-thirds, split-one-third, slide-over"
            )) { _ = try sim.step(.setArrangement(.splitHalf)) }
            #expect(sim.serial == serial && sim.state.arrangement == .splitTwoThirds)
        }
    }

    @Test func seedNumbers() throws {
        // Seed documents: 694 for 2/3 on a 1024-wide iPad; 678 each for the 12.9-inch 50/50, both regular.
        let small = try simulation("ipad-9.7", .landscapeLeft, .splitTwoThirds)
        #expect(small.windows["left"]?.frame.width == 694)
        let big = try simulation("ipad-pro-12.9", .landscapeRight, .splitHalf)
        #expect(big.windows["left"]?.frame.width == 678 && big.windows["right"]?.frame.width == 678)
        #expect(big.windows["left"]?.traits.horizontalSizeClass == .regular)
        #expect(big.windows["right"]?.traits.horizontalSizeClass == .regular)
    }
}
