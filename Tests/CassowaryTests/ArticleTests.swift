import Cassowary
import Testing

/// The code of the DocC article "Build and solve" (Sources/Cassowary/Cassowary.docc), with the values it prints.
@Suite struct ArticleTests {
    /// The example of docs/layout-engine.md, "Cassowary, with Auto Layout's priorities", as it is written there.
    @Test func oneStrongerConstraintBeatsAnyNumberOfWeakerOnes() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(x == 100 ~ 751)
        for _ in 0..<2000 { try solver.add(x == 0 ~ 750) }
        solver.updateVariables()            // x.value == 100
        #expect(x.value == 100)
    }

    @Test func buildAndSolve() throws {
        let width = Variable("window.width")
        let main = Variable("main.width")
        let panel = Variable("panel.width")

        let solver = Solver()
        try solver.add(main + panel == Expression(width))
        try solver.add(panel <= 374)
        try solver.add(panel == 0.5 * width ~ .low)

        let sidebar = Variable("sidebar.width")
        let content = Variable("content.width")
        let split = Solver()
        try split.add(contentsOf: [
            sidebar + content == 1024,
            sidebar >= 320,
            sidebar == 0.3 * content ~ .low,
        ])
        split.updateVariables()
        #expect(sidebar.value == 320 && content.value == 704)

        try solver.addEditVariable(width, priority: .high)
        try solver.suggestValue(width, 1366)
        solver.updateVariables()
        #expect(main.value == 992 && panel.value == 374)

        try solver.suggestValue(width, 694)
        solver.updateVariables()
        #expect(main.value == 347 && panel.value == 347)

        var refused = false
        do {
            try solver.add(panel >= 400)
        } catch SolverError.unsatisfiable(let constraint, let conflict) {
            refused = conflict.last === constraint && conflict.count > 1
        }
        #expect(refused, "the conflict names the new constraint last, with those it conflicts with")
        #expect(solver.ambiguousVariables().isEmpty)
    }

    /// The article's aside: with the half-width wish at 999, above the suggestion's 750, the window gives way.
    @Test func aWishStrongerThanTheSuggestionMovesTheWindow() throws {
        let (width, main, panel) = (Variable("window.width"), Variable("main.width"), Variable("panel.width"))
        let solver = Solver()
        try solver.add(main + panel == Expression(width))
        try solver.add(panel <= 374)
        try solver.add(panel == 0.5 * width ~ 999)
        try solver.addEditVariable(width, priority: .high)
        try solver.suggestValue(width, 1366)
        solver.updateVariables()
        #expect(width.value == 748 && panel.value == 374)
    }
}
