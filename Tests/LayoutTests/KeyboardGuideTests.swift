import Layout
import Testing
import Vocabulary

/// The `keyboard` guide: `UIKeyboardLayoutGuide`'s rules, and `keyboard follows-undocked`.
@Suite struct KeyboardGuideTests {
    let file = """
        view bar
        bar.left == super.left
        bar.right == super.right
        bar.height == 44
        bar.bottom == keyboard.top
        """

    func bar(_ text: String, keyboard: Rect?, docked: Bool, safeBottom: Double = 34) throws -> Rect? {
        var environment = LayoutEnvironment(width: 400, height: 800, safeArea: EdgeInsets(top: 0, left: 0, bottom: safeBottom, right: 0))
        environment.keyboard = keyboard
        environment.keyboardDocked = docked
        return try LayoutParser.parse(text, file: "bar.layout").solve(in: environment).frames["bar"]
    }

    @Test func theGuideFollowsUIKeyboardLayoutGuidesRules() throws {
        // Hidden: the guide's top is the safe area's bottom.
        #expect(try bar(file, keyboard: nil, docked: false) == Rect(x: 0, y: 722, width: 400, height: 44))
        // Docked and reaching into the window: its top, whatever the safe area.
        #expect(try bar(file, keyboard: Rect(x: 0, y: 500, width: 400, height: 300), docked: true) == Rect(x: 0, y: 456, width: 400, height: 44))
        // Docked but below the window (a window higher up the screen): as hidden.
        #expect(try bar(file, keyboard: Rect(x: 0, y: 900, width: 400, height: 300), docked: true)?.y == 722)
        // Undocked or floating: as hidden, unless the file follows undocked keyboards.
        let floating = Rect(x: 40, y: 400, width: 320, height: 260)
        #expect(try bar(file, keyboard: floating, docked: false)?.y == 722)
        #expect(try bar("keyboard follows-undocked\n" + file, keyboard: floating, docked: false)?.y == 356)
        // A floating keyboard that misses the window: as hidden, even when followed.
        #expect(try bar("keyboard follows-undocked\n" + file, keyboard: Rect(x: 500, y: 400, width: 320, height: 260), docked: false)?.y == 722)
    }

    @Test func keyboardIsTheGuidesNameAndItsDeclarationIsChecked() {
        func error(_ text: String) -> String {
            do {
                _ = try LayoutParser.parse(text, file: "k.layout")
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        #expect(error("view keyboard\n") == "k.layout:1:6: 'keyboard' is a guide there in every layout ('safe' for the safe area, 'safeHorizontal' and 'safeVertical' for it past the window controls, 'keyboard' for the keyboard); choose another name")
        #expect(error("keyboard follows\n") == "k.layout:1:10: expected 'keyboard follows-undocked' (the keyboard guide also tracks an undocked, split or floating keyboard)")
        #expect(error("view a\na.bottom == keyboard.top\n") == "parsed")
    }
}

/// The `safeHorizontal` and `safeVertical` guides: the safe area adapted to iPadOS 26's window controls.
@Suite struct CornerAdaptedGuideTests {
    @Test func aBackButtonClearsTheWindowControls() throws {
        let file = "view back\nback.leading == safeHorizontal.leading + 8\nback.top == safeVertical.top\nback.width == 60\nback.height == 44\n"
        var environment = LayoutEnvironment(width: 600, height: 500, safeArea: EdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
        let document = try LayoutParser.parse(file, file: "back.layout")
        // Without controls both guides are the safe area.
        #expect(try document.solve(in: environment).frames["back"] == Rect(x: 8, y: 20, width: 60, height: 44))
        environment.cornerAdaptedInsets = CornerAdaptedInsets(safeArea: environment.safeArea, controls: Rect(x: 0, y: 0, width: 80, height: 32), width: 600)
        #expect(try document.solve(in: environment).frames["back"] == Rect(x: 88, y: 32, width: 60, height: 44))
    }
}
