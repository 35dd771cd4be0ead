import TraitConfig
import TraitModel
import Vocabulary
import Testing

/// The divider drag of seed document 004, on the 9.7-inch iPad in landscape: snap points 320 (1/3),
/// 507 (1/2) and 694 (2/3); the divider track ends at 1014; releasing within 160 pt of an edge dismisses.
@Suite struct DividerDragTests {
    let catalog = try! ProfileLoader.catalog()

    func make(_ arrangement: Arrangement = .splitTwoThirds, _ orientation: Orientation = .landscapeLeft) throws -> Simulation {
        try Simulation(catalog: catalog, state: DisplayState(
            device: "ipad-9.7", orientation: orientation, arrangement: arrangement,
            apps: [.init(name: "mail", role: .primary), .init(name: "notes", role: .secondary)]))
    }

    @Test func theTrackHasASnapPointPerOfferedSplit() throws {
        let track = try make().dividerTrack
        #expect(track.snapPoints.map(\.position) == [320, 507, 694])
        #expect(track.end == 1014 && track.dismissDistance == 160)
        #expect(track.crossed(from: 694, to: 300) == [.splitHalf, .splitOneThird])
        #expect(track.crossed(from: 694, to: 600).isEmpty)
        #expect(track.crossed(from: 300, to: 694) == [.splitOneThird, .splitHalf, .splitTwoThirds])
    }

    @Test func beginSendsBothAppsInactiveWithoutATransition() throws {
        var sim = try make()
        let plan = try sim.step(.beginDividerDrag)
        #expect(plan.transitions.isEmpty && plan.displayChanges == [.dragging])
        #expect(plan.windows.map(\.lifecycle) == [[.willResignActive], [.willResignActive]])
        #expect(sim.windows.values.allSatisfy { $0.state == .inactive })
        #expect(sim.drag == DividerDrag(position: 694, shown: .splitTwoThirds) && sim.serial == 2)
        #expect(throws: ModelError.dragging("the divider is already being dragged; end the drag with EndDividerDrag")) {
            _ = try sim.apply(.beginDividerDrag)
        }
        #expect(throws: ModelError.self) { _ = try sim.apply(.setArrangement(.full)) }
        #expect(throws: ModelError.self) { _ = try sim.apply(.closeApp("notes")) }
        #expect(sim.serial == 2)
    }

    @Test func thereIsNoDividerOutsideASplit() throws {
        var sim = try make(.full)
        #expect(throws: ModelError.self) { _ = try sim.apply(.beginDividerDrag) }
        #expect(sim.serial == 1 && sim.drag == nil)
    }

    @Test func callsOutOfOrderChangeNothing() throws {
        var sim = try make()
        #expect(throws: ModelError.notDragging("no divider drag is in progress; start one with BeginDividerDrag")) {
            _ = try sim.apply(.moveDivider(400))
        }
        #expect(throws: ModelError.self) { _ = try sim.apply(.endDividerDrag) }
        _ = try sim.apply(.beginDividerDrag)
        for bad in [Double.nan, .infinity, -.infinity, -1, 1015, 1e300] {
            #expect(throws: ModelError.self) { _ = try sim.apply(.moveDivider(bad)) }
        }
        #expect(sim.serial == 2 && sim.dividerPosition == 694)
    }

    @Test func movesSnapshotAtEverySnapPointCrossed() throws {
        var sim = try make()
        _ = try sim.apply(.beginDividerDrag)
        // No snap point between 694 and 650: the divider moves, no window does.
        let small = try sim.apply(.moveDivider(650))
        #expect(small.count == 1 && small[0].windows.isEmpty && small[0].displayChanges == [.divider])
        // 650 -> 300 crosses 507 and 320: two snapshot stages, each resizing both apps.
        let far = try sim.apply(.moveDivider(300))
        #expect(far.count == 2)
        #expect(far[0].transitions.map { $0.after!.frame.width } == [507, 507])
        #expect(far[1].transitions.map { $0.after!.frame.width } == [320, 694])
        #expect(far.allSatisfy { $0.transitions.allSatisfy { $0.context.reason == .snapshot && $0.after!.state == .inactive } })
        // The arrangement itself changes only on release.
        #expect(sim.state.arrangement == .splitTwoThirds && sim.drag?.shown == .splitOneThird && sim.dividerPosition == 300)
    }

    @Test(arguments: [(Arrangement.splitOneThird, 300.0), (.splitHalf, 520), (.splitTwoThirds, 640)])
    func releaseSnapsToTheNearestSplit(target: Arrangement, x: Double) throws {
        var sim = try make(target == .splitTwoThirds ? .splitHalf : .splitTwoThirds)
        _ = try sim.apply(.beginDividerDrag)
        _ = try sim.apply(.moveDivider(x))
        let plans = try sim.apply(.endDividerDrag)
        #expect(sim.state.arrangement == target && sim.drag == nil)
        #expect(sim.windows.values.allSatisfy { $0.state == .active })
        let lifecycle = plans.flatMap(\.windows).map(\.lifecycle)
        #expect(lifecycle == [[.didBecomeActive], [.didBecomeActive]])
        #expect(plans.allSatisfy { $0.reason == .drag })
    }

    @Test func dragToTheLeftEdgeDismissesThePrimary() throws {
        var sim = try make()
        _ = try sim.apply(.beginDividerDrag)
        _ = try sim.apply(.moveDivider(100))
        let plan = try sim.step(.endDividerDrag)
        #expect(plan.closed == ["mail"])
        #expect(plan.windows.first { $0.app == "mail" }?.lifecycle == [.didEnterBackground])
        #expect(plan.windows.first { $0.app == "notes" }?.lifecycle == [.didBecomeActive])
        #expect(sim.state.apps == [.init(name: "notes", role: .primary)] && sim.state.arrangement == .full)
        #expect(sim.state.background == ["mail"] && sim.windows["notes"]?.frame.width == 1024)
        // Opened again, the dismissed app comes back from the background.
        let back = try sim.step(.openApp("mail", .secondary))
        #expect(back.windows.first { $0.app == "mail" }?.lifecycle == [.willEnterForeground, .didBecomeActive])
        #expect(sim.state.background.isEmpty)
    }

    @Test func dragToTheRightEdgeDismissesTheSecondary() throws {
        var sim = try make()
        _ = try sim.apply(.beginDividerDrag)
        _ = try sim.apply(.moveDivider(1000))
        let plan = try sim.step(.endDividerDrag)
        #expect(plan.closed == ["notes"] && sim.state.background == ["notes"])
        #expect(sim.state.apps == [.init(name: "mail", role: .primary)] && sim.windows["mail"]?.frame.width == 1024)
    }

    @Test func aDragThatReturnsToTheStartLeavesEveryWindowAsItWas() throws {
        var sim = try make()
        let start = sim.windows
        _ = try sim.apply(.beginDividerDrag)
        _ = try sim.apply(.moveDivider(250))
        _ = try sim.apply(.moveDivider(694))
        let end = try sim.step(.endDividerDrag)
        #expect(sim.windows == start && sim.state.arrangement == .splitTwoThirds)
        #expect(end.transitions.isEmpty)  // the last snapshot already had the final size
    }

    @Test func aRotationDuringADragKeepsTheDrag() throws {
        var sim = try make()
        _ = try sim.apply(.beginDividerDrag)
        _ = try sim.apply(.moveDivider(507))
        let rotation = try sim.step(.rotate(.portrait))
        #expect(rotation.reason == .rotation && !rotation.transitions.isEmpty)
        #expect(sim.drag != nil && sim.windows.values.allSatisfy { $0.state == .inactive })
        // 507 of 1014 is half the track; in portrait the track is 758 long and has no 1/2 split.
        #expect(sim.dividerPosition == 379 && sim.drag?.shown == .splitTwoThirds)
        _ = try sim.apply(.endDividerDrag)
        #expect([Arrangement.splitTwoThirds, .splitOneThird].contains(sim.state.arrangement))
        #expect(sim.windows.values.allSatisfy { $0.state == .active })
    }
}
