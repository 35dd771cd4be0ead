import Testing
import Vocabulary

/// The accessibility snapshot's one format, as Playwright writes aria snapshots: a line a node, children indented
/// under a colon, names quoted, attributes in brackets; and its strict match against a golden, names written as
/// text or as a `/pattern/` found in the name.
@Suite struct AriaSnapshotTests {
    static let form = [
        AriaNode(role: "heading", name: "Sign up", attributes: ["level=1"]),
        AriaNode(role: "group", name: "Details", children: [
            AriaNode(role: "textbox", name: "Name"),
            AriaNode(role: "checkbox", name: "Keep me \"signed\" in", attributes: ["checked"]),
            AriaNode(role: AriaNode.textRole, name: "Read the terms\nfirst"),
        ]),
        AriaNode(role: "button", name: "Submit", attributes: ["disabled"]),
    ]

    @Test func aTreeIsWrittenAsPlaywrightWritesIt() {
        #expect(AriaSnapshot.yaml(Self.form) == """
            - heading "Sign up" [level=1]
            - group "Details":
              - textbox "Name"
              - checkbox "Keep me \\"signed\\" in" [checked]
              - text: "Read the terms\\nfirst"
            - button "Submit" [disabled]

            """)
        // A long tree is cut, saying how much is left out.
        #expect(AriaSnapshot.yaml(Self.form, maximumLines: 2) == "- heading \"Sign up\" [level=1]\n- group \"Details\":\n# ... 4 more nodes\n")
    }

    @Test func aGoldenMatchesStrictlyWithNamesAsTextOrPatterns() {
        let snapshot = AriaSnapshot.yaml(Self.form)
        #expect(AriaSnapshot.mismatch(template: snapshot, snapshot: snapshot) == nil)
        // Names as patterns (found in the name), comments and blank lines ignored.
        let golden = """
            # the sign-up form
            - heading /^Sign/ [level=1]
            - group "Details":
              - textbox /Na/

              - checkbox /signed/ [checked]
              - text: /terms/
            - button /Sub(mit|scribe)/ [disabled]
            """
        #expect(AriaSnapshot.mismatch(template: golden, snapshot: snapshot) == nil)
        // A renamed button fails, naming the line.
        let renamed = snapshot.replacing("\"Submit\"", with: "\"Send\"")
        #expect(AriaSnapshot.mismatch(template: snapshot, snapshot: renamed)
                == "line 6: the golden has `- button \"Submit\" [disabled]`, the snapshot `- button \"Send\" [disabled]`")
        #expect(AriaSnapshot.mismatch(template: golden, snapshot: renamed) != nil)
        // Strict: a golden that leaves a node out does not match, nor does an attribute that changed.
        let shorter = snapshot.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(AriaSnapshot.mismatch(template: shorter, snapshot: snapshot)
                == "the golden has 5 lines, the snapshot 6: the snapshot goes on with `- button \"Submit\" [disabled]`")
        #expect(AriaSnapshot.mismatch(template: snapshot.replacing("[checked]", with: "[checked=mixed]"), snapshot: snapshot) != nil)
        // A pattern does not stand for the role, the nesting or the attributes.
        #expect(!AriaSnapshot.lineMatches("- link /Submit/ [disabled]", "- button \"Submit\" [disabled]"))
        #expect(!AriaSnapshot.lineMatches("  - button /Submit/ [disabled]", "- button \"Submit\" [disabled]"))
        #expect(!AriaSnapshot.lineMatches("- button /Submit/", "- button \"Submit\" [disabled]"))
        // A pattern that is not a regular expression matches nothing (and does not crash).
        #expect(!AriaSnapshot.lineMatches("- button /(/ [disabled]", "- button \"Submit\" [disabled]"))
    }
}
