import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// The iPhone profiles and every window's safe area, against the reference's tables (`Fixtures/ipad-geometry.md`).
@Suite struct PhoneAndSafeAreaTests {
    let catalog: DeviceCatalog
    let phones: [PhoneRow]

    init() throws {
        catalog = try ProfileLoader.catalog()
        phones = try ReferenceTable.phoneRows()
    }

    /// The display scale of each iPhone profile, from the reference's class table ("2x (SE, 8), 3x (X and later)";
    /// "3x (Plus, Max), 2x (XR, 11)"): its prose names models, not profile ids, so the mapping is written here.
    static let scales: [String: Double] = [
        "iphone-se-1": 2, "iphone-8": 2, "iphone-8-plus": 3, "iphone-x": 3, "iphone-xr": 2, "iphone-xs-max": 3,
        "iphone-12": 3, "iphone-13-mini": 3, "iphone-12-pro-max": 3,
    ]

    func simulation(_ device: String, _ orientation: Orientation, _ arrangement: Arrangement = .full,
                    apps: [DisplayState.App] = [.init(name: "mail", role: .primary)]) throws -> Simulation {
        try Simulation(catalog: catalog, state: DisplayState(
            device: device, orientation: orientation, arrangement: arrangement, apps: apps))
    }

    @Test func everyPhoneOfTheReferenceIsAProfile() throws {
        #expect(phones.count == 9)
        for row in phones {
            let profile = try catalog.profile(row.id)
            #expect(profile.idiom == .phone, "\(row.id)")
            #expect(profile.scale == Self.scales[row.id], "\(row.id) scale")
            #expect(profile.orientations == [.portrait, .landscapeLeft, .landscapeRight], "\(row.id): no upside-down")
        }
        #expect(Set(Self.scales.keys) == Set(phones.map(\.id)))
    }

    @Test func phoneWindowsMatchTheTable() throws {
        var checked = 0
        for row in phones {
            for orientation in [Orientation.portrait, .landscapeLeft, .landscapeRight] {
                let sim = try simulation(row.id, orientation)
                let what = "\(row.id) \(orientation.rawValue)"
                let screen = orientation.isLandscape
                    ? Size(width: row.portraitScreen.height, height: row.portraitScreen.width) : row.portraitScreen
                let mail = try #require(sim.windows["mail"])
                #expect(sim.geometry.screen == screen, "\(what) screen")
                #expect(mail.frame == Rect(x: 0, y: 0, width: screen.width, height: screen.height), "\(what) frame")
                let (h, v): (SizeClass, SizeClass) = orientation.isLandscape
                    ? (row.landscapeHorizontal, row.landscapeVertical) : (.compact, .regular)
                var traits = TraitCollection(
                    horizontalSizeClass: h, verticalSizeClass: v, idiom: .phone, displayScale: Self.scales[row.id]!,
                    displayGamut: row.id == "iphone-se-1" ? .srgb : .p3)
                traits.windowWidthSizeClass = WindowWidthSizeClass(width: screen.width)
                traits.windowHeightSizeClass = WindowHeightSizeClass(height: screen.height)
                #expect(mail.traits == traits, "\(what) traits")
                #expect(mail.safeArea == (orientation.isLandscape ? row.landscapeSafeArea : row.portraitSafeArea), "\(what) safe area")
                #expect(sim.profile.offeredArrangements(orientation) == [.full], "\(what): one app at a time")
                checked += 1
            }
        }
        #expect(checked == 9 * 3)
    }

    @Test func thePortraitClassesOfEveryPhoneClassAreCompactRegular() throws {
        // The class table's portrait column, which `phoneWindowsMatchTheTable` takes as C / R for every phone.
        let classRows = try ReferenceTable.text().split(separator: "\n")
            .filter { $0.hasPrefix("| standard phones") || $0.hasPrefix("| Plus / Max phones") }
        #expect(classRows.count == 2)
        for line in classRows { #expect(ReferenceTable.cells(line)[1] == "C / R") }
    }

    @Test func everyIPadWindowGetsTheInsetsOfTheEdgesItTouches() throws {
        let rows = try ReferenceTable.padSafeAreaRows()
        #expect(rows.count == 3)
        // Which row of the iPad safe-area table covers each profile: the table names models by their size.
        let covering: [String: String] = [
            "ipad-9.7": "9.7\"", "ipad-10.2": "10.2\"", "ipad-pro-10.5": "10.5\"", "ipad-pro-11": "11\"",
            "ipad-pro-12.9": "12.9\" 3rd gen", "ipad-air-10.9": "Air 10.9", "ipad-mini-6": "mini 6",
        ]
        var checked = 0
        for (id, key) in covering {
            let insets = try #require(rows.first { $0.models.contains(key) }?.insets, "no safe-area row for \(id)")
            for orientation in Orientation.allCases {
                for arrangement in try catalog.profile(id).offeredArrangements(orientation) {
                    let sim = try simulation(id, orientation, arrangement, apps: [
                        .init(name: "left", role: .primary), .init(name: "right", role: .secondary),
                        .init(name: "video", role: .pip),
                    ])
                    let what = "\(id) \(orientation.rawValue) \(arrangement.rawValue)"
                    let left = try #require(sim.windows["left"]), right = try #require(sim.windows["right"])
                    switch arrangement {
                    case .full, .slideOver:
                        #expect(left.safeArea == insets, "\(what) full-screen window")
                    default:
                        #expect(left.safeArea == EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: 0), "\(what)")
                        #expect(right.safeArea == EdgeInsets(top: insets.top, left: 0, bottom: insets.bottom, right: insets.right), "\(what)")
                    }
                    if arrangement == .slideOver { #expect(right.safeArea == .zero, "\(what): Slide Over is already inset") }
                    #expect(sim.windows["video"]?.safeArea == .zero, "\(what): pip floats")
                    checked += 1
                }
            }
        }
        #expect(checked == 7 * (2 * 5 + 2 * 4))
    }

    @Test func aPlusPhoneTurnsBothClassesInOneTransition() throws {
        var sim = try simulation("iphone-8-plus", .portrait)
        for (to, traits) in [(Orientation.landscapeLeft, (SizeClass.regular, SizeClass.compact)), (.portrait, (.compact, .regular))] {
            let plan = try sim.step(.rotate(to))
            let mail = try #require(plan.transitions.first)
            #expect(plan.transitions.count == 1)
            let after = try #require(mail.after)
            #expect(after.traits.horizontalSizeClass == traits.0 && after.traits.verticalSizeClass == traits.1)
            // The status bar (20 pt at the top) shows in portrait only, so the safe area changes too.
            #expect(mail.steps.names == ["willTransitionToTraits", "viewWillTransitionToSize", "updateProperties",
                                               "traitCollectionDidChange", "traitsDidChange", "safeAreaInsetsDidChange", "viewWillLayoutSubviews", "complete"])
        }
    }

    @Test func aFaceIDPhoneRefusesUpsideDownAndChangesNothing() throws {
        var sim = try simulation("iphone-x", .landscapeLeft)
        let before = (sim.state, sim.windows, sim.serial)
        #expect(throws: ModelError.notOffered(
            "iphone-x does not offer portrait-upside-down; offered orientations: portrait, landscape-left, landscape-right"
        )) { _ = try sim.step(.rotate(.portraitUpsideDown)) }
        #expect(sim.state == before.0 && sim.windows == before.1 && sim.serial == before.2)
    }

    @Test func aSafeAreaChangeIsTheLastStepBeforeCompletion() throws {
        var sim = try simulation("iphone-x", .portrait)
        let plan = try sim.step(.rotate(.landscapeLeft))
        let mail = try #require(plan.transitions.first)
        #expect(mail.safeAreaChanged)
        #expect(mail.steps.names == ["willTransitionToTraits", "viewWillTransitionToSize", "updateProperties",
                                           "traitCollectionDidChange", "traitsDidChange", "safeAreaInsetsDidChange", "viewWillLayoutSubviews", "complete"])
        #expect(mail.steps.all.contains(.safeAreaInsetsDidChange(EdgeInsets(top: 0, left: 44, bottom: 24, right: 44))))
        // Landscape-left to landscape-right: insets are symmetric, so only the half turn's size step.
        let half = try sim.step(.rotate(.landscapeRight))
        #expect(half.transitions.first?.steps.names == ["viewWillTransitionToSize", "updateProperties", "viewWillLayoutSubviews", "complete"])
    }

    @Test func aPhoneShowsOneAppAndSendsTheOtherToTheBackground() throws {
        var sim = try simulation("ipad-pro-11", .portraitUpsideDown, .splitTwoThirds, apps: [
            .init(name: "mail", role: .primary), .init(name: "notes", role: .secondary),
        ])
        let toPhone = try sim.step(.setDevice("iphone-12"))
        // The phone has no upside-down: the nearest it offers is portrait.
        #expect(sim.state.orientation == .portrait && sim.state.arrangement == .full)
        #expect(sim.appNames == ["mail"] && sim.state.background == ["notes"])
        #expect(sim.windows["mail"]?.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        let notes = try #require(toPhone.windows.first { $0.app == "notes" })
        #expect(notes.after == nil && notes.lifecycle == [.willResignActive, .didEnterBackground])
        #expect(toPhone.closed == ["notes"])
        // A second app cannot open beside the primary on a phone.
        #expect(throws: ModelError.notOffered(
            "iphone-12 shows one app at a time in portrait (offered: full); close the primary app and open 'notes' as primary, or open it as pip"
        )) { _ = try sim.step(.openApp("notes", .secondary)) }
        #expect(throws: ModelError.notOffered(
            "iphone-12 shows one app at a time in portrait (offered: full); close the primary app and open 'other' as primary, or open it as pip"
        )) { _ = try sim.step(.openApp("other", .slideOver)) }
        // Back to the iPad: notes stays in the background until it is opened again.
        _ = try sim.step(.setDevice("ipad-pro-11"))
        #expect(sim.appNames == ["mail"] && sim.state.background == ["notes"])
        let back = try sim.step(.openApp("notes", .secondary))
        #expect(sim.state.arrangement == .splitTwoThirds && sim.state.background.isEmpty)
        #expect(back.windows.first { $0.app == "notes" }?.lifecycle == [.willEnterForeground, .didBecomeActive])
    }

    @Test func pictureInPictureFloatsOnAPhone() throws {
        var sim = try simulation("iphone-8", .portrait)
        _ = try sim.step(.openApp("video", .pip))
        let video = try #require(sim.windows["video"])
        #expect(video.role == .pip && video.traits.idiom == .phone && video.safeArea == .zero)
        #expect(video.frame.x + video.frame.width <= 375 && video.frame.y + video.frame.height <= 667)
    }
}
