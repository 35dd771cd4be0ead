import Layout
import Testing
import Vocabulary

/// The display-wide settings in the layout language: leading and trailing follow the layout direction (left and
/// right never do), sections on appearance, contrast, legibility, direction and text size, and the body text
/// size in expressions.
@Suite struct DirectionAndTextSizeTests {
    /// An iPad window's environment with these settings (`DisplayTrait.word: value`).
    func environment(_ width: Double = 1024, _ height: Double = 768, _ settings: [DisplayTrait: String] = [:]) -> LayoutEnvironment {
        var traits = TraitCollection.pad(width >= 678 ? .regular : .compact)
        for (trait, value) in settings { traits.display[trait] = value }
        return LayoutEnvironment(width: width, height: height, traits: traits)
    }

    static let mail = """
        view sidebar content badge footer
        H:|-[sidebar(==240)]-[content]-|
        V:|-[sidebar]-|
        V:|-[content]-[footer(==44)]-|
        badge.trailing == content.trailing - 12
        badge.top == content.top + 12
        badge.width == 44
        badge.height == 44
        footer.leading == content.leading + 30
        footer.trailing == super.trailing - 20
        """

    /// The same file solved left to right and right to left: every frame is the other's mirror image about the
    /// window's vertical centre line (x' = width - x - w), sizes and vertical positions unchanged.
    @Test(arguments: [(1024.0, 768.0), (507, 768), (320, 1024)])
    func rightToLeftMirrorsEveryFrame(width: Double, height: Double) throws {
        let document = try LayoutParser.parse(Self.mail, file: "mail.layout")
        let ltr = try document.solve(in: environment(width, height))
        let rtl = try document.solve(in: environment(width, height, [.direction: "right-to-left"]))
        #expect(ltr.ambiguous.isEmpty && rtl.ambiguous.isEmpty)
        #expect(Set(ltr.frames.keys) == ["sidebar", "content", "badge", "footer"] && Set(rtl.frames.keys) == Set(ltr.frames.keys))
        for (name, frame) in ltr.frames {
            let mirrored = try #require(rtl.frames[name])
            #expect(abs(mirrored.x - (width - frame.x - frame.width)) < 1e-6, "\(name): \(frame) mirrors to \(mirrored)")
            #expect(mirrored.y == frame.y && mirrored.width == frame.width && mirrored.height == frame.height, "\(name)")
        }
        // Leading is where reading starts: the sidebar is on the left, then on the right.
        #expect(ltr.frames["sidebar"]!.x == 20)
        #expect(rtl.frames["sidebar"]!.x == width - 20 - 240)
    }

    /// `left` and `right` are the same in both directions (Auto Layout's rule).
    @Test func leftAndRightNeverFlip() throws {
        let document = try LayoutParser.parse("""
            view pin
            pin.left == super.left + 10
            pin.right == super.right - 700
            pin.top == super.top
            pin.height == 10
            """, file: "pin.layout")
        let ltr = try document.solve(in: environment())
        let rtl = try document.solve(in: environment(1024, 768, [.direction: "right-to-left"]))
        #expect(ltr.frames["pin"] == Rect(x: 10, y: 0, width: 314, height: 10))
        #expect(rtl.frames == ltr.frames)
    }

    @Test func sectionsOnTheSettings() throws {
        let document = try LayoutParser.parse("""
            view a
            a.left == 0
            a.top == 0
            a.height == 10
            a.width == 100
            [dark]
            extra scheme = dark
            [light]
            extra scheme = light
            [right-to-left]
            extra direction = rtl
            [left-to-right]
            extra direction = ltr
            [high-contrast]
            extra borders = true
            [bold-text]
            extra weight = bold
            [content-size >= accessibility-medium]
            extra stack = vertical
            [content-size <= small]
            extra tiny = true
            [content-size == large]
            extra default-size = true
            """, file: "s.layout")
        func extras(_ settings: [DisplayTrait: String]) -> [String: String] {
            document.extras(in: environment(1024, 768, settings)).mapValues { "\($0)" }
        }
        #expect(extras([:]) == ["scheme": "light", "direction": "ltr", "default-size": "true"])
        #expect(extras([.appearance: "dark", .direction: "right-to-left", .contrast: "high", .legibility: "bold",
                        .contentSize: "accessibility-medium"])
            == ["scheme": "dark", "direction": "rtl", "borders": "true", "weight": "bold", "stack": "vertical"])
        #expect(extras([.contentSize: "extra-small"])["tiny"] == "true")
        #expect(extras([.contentSize: "accessibility-extra-extra-extra-large"])["stack"] == "vertical")
        #expect(extras([.contentSize: "extra-extra-extra-large"])["stack"] == nil, "the largest non-accessibility size is below")
        // Each prints as it is written.
        #expect(document.constraints.isEmpty == false)
        for (section, text) in [("dark", "[dark]"), ("content-size >= accessibility-medium", "[content-size >= accessibility-medium]"),
                                ("bold-text and not high-contrast", "[bold-text and not high-contrast]")] {
            let parsed = try LayoutParser.parse("view a\n[\(section)]\na.width == 1\n", file: "t.layout")
            #expect(parsed.constraints.first?.condition.description == text)
        }
    }

    /// `body` is the body text size of the current category, from the reference table (17 pt at large, 53 pt at
    /// the largest accessibility size).
    @Test(arguments: [("large", 17.0), ("extra-small", 14), ("accessibility-medium", 28), ("accessibility-extra-extra-extra-large", 53)])
    func theBodyTextSizeInExpressions(category: String, body: Double) throws {
        let document = try LayoutParser.parse("""
            view row label
            row.left == 0
            row.top == 0
            row.width == 300
            row.height >= 1.5 * body
            row.height == 0 @low
            label.top == row.bottom + body
            label.left == row.left
            label.width == 100
            label.height == body
            """, file: "rows.layout")
        let frames = try document.solve(in: environment(1024, 768, [.contentSize: category])).frames
        #expect(frames["row"] == Rect(x: 0, y: 0, width: 300, height: 1.5 * body))
        #expect(frames["label"] == Rect(x: 0, y: 2.5 * body, width: 100, height: body))
        #expect(document.constraints.map(\.text).contains("row.height >= 1.5 * body"))
        #expect(document.constraints.map(\.text).contains("label.top == row.bottom + body"))
    }

    @Test(arguments: [
        ("[content-size > large]", 1, 15, "expected >=, <= or == after 'content-size'"),
        ("[content-size >= huge]", 1, 18, "expected a content size category: extra-small, small, medium, large"),
        ("[sepia]", 1, 2, "unknown condition 'sepia'; expected w:compact"),
        ("view a\na.width == 2 * bodyy", 2, 16, "unknown item 'bodyy'"),
        ("view a\na.width == super.width + 2 * width", 2, 30, "expected body after '2 *'"),
    ])
    func mistakesNameTheLineAndWhatWasExpected(text: String, line: Int, column: Int, expected: String) throws {
        #expect {
            try LayoutParser.parse(text, file: "bad.layout")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("bad.layout:\(line):\(column): ") && message.contains(expected)
        }
    }
}
