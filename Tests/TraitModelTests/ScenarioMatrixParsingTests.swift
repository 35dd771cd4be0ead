import Testing
import TraitConfig
import TraitModel
import Vocabulary

/// A scenario's `matrix:` parsed, and expanded into its combinations in the file's order.
@Suite struct ScenarioMatrixParsingTests {
    @Test func combinationsTakeTheFilesOrderTheFirstKeySlowest() throws {
        let scenario = try Scenario.parse("""
            device: ipad-9.7
            matrix:
              device: [ipad-9.7, iphone-8]
              appearance: [light, dark]
              width: { mail: [320, 500] }
            steps:
              - set: { orientation: landscape-left, arrangement: split-half }
            """, file: "m.yaml")
        let runs = scenario.combinations
        #expect(runs.map(\.name) == ["ipad-9.7+light+mail=320", "ipad-9.7+light+mail=500", "ipad-9.7+dark+mail=320",
                                     "ipad-9.7+dark+mail=500", "iphone-8+light+mail=320", "iphone-8+light+mail=500",
                                     "iphone-8+dark+mail=320", "iphone-8+dark+mail=500"])
        let last = runs.last!.scenario
        #expect(last.device == "iphone-8" && last.matrix.isEmpty)
        // The matrix's steps first, in its order, then the file's; set: keeps the file's order (a rotation, then
        // the split only landscape offers).
        #expect(last.steps.map(\.title) == ["set appearance dark", "width mail 500", "set orientation landscape-left",
                                            "set arrangement split-half"])
    }

    @Test func aMatrixAloneIsAScenarioAndAScenarioWithoutOneIsItsOwnCombination() throws {
        let alone = try Scenario.parse("device: ipad-9.7\nmatrix:\n  orientation: [portrait, landscape-left]\n", file: "a.yaml")
        #expect(alone.combinations.map(\.name) == ["portrait", "landscape-left"])
        #expect(alone.combinations.allSatisfy { $0.scenario.steps.isEmpty })
        #expect(alone.combinations[1].scenario.orientation == .landscapeLeft)
        let plain = try Scenario.parse("device: iphone-x\nsteps:\n  - close: notes\n", file: "p.yaml")
        #expect(plain.combinations.map(\.name) == ["iphone-x"])
        #expect(throws: ConfigError.self) { try Scenario.parse("device: ipad-9.7\n", file: "none.yaml") }
    }

    @Test func matrixMistakesAreLocated() throws {
        func error(_ text: String) -> String {
            do {
                _ = try Scenario.parse(text, file: "m.yaml")
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        #expect(error("device: ipad-9.7\nmatrix: {}\n") == "m.yaml:2:9: the matrix is empty; give a key and its values, e.g. appearance: [light, dark]")
        #expect(error("device: ipad-9.7\nmatrix:\n  appearance: []\n").hasPrefix("m.yaml:3:3: the matrix's appearance has no values"))
        #expect(error("device: ipad-9.7\nmatrix:\n  width: { mail: [0] }\n").hasPrefix("m.yaml:3:19: a width in points must be between 1 and 10000"))
        #expect(error("device: ipad-9.7\nmatrix:\n  orientation: [up]\n").hasPrefix("m.yaml:3:17: unknown orientation 'up'"))
    }
}
