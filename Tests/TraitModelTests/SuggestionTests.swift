import Testing
import Vocabulary

/// `Suggestion`: the word a slip most likely meant, and none where no word is near or two are as near.
@Suite struct SuggestionTests {
    @Test func slipsFindTheirWordAndNonsenseFindsNone() {
        let devices = ["ipad-9.7", "ipad-10.2", "ipad-pro-11", "ipad-pro-12.9", "iphone-15", "iphone-15-pro-max", "iphone-x"]
        #expect(Suggestion.nearest("ipad-97", among: devices) == "ipad-9.7")
        #expect(Suggestion.nearest("iphone15", among: devices) == "iphone-15")
        #expect(Suggestion.nearest("iPhone-X", among: devices) == "iphone-x")
        #expect(Suggestion.nearest("pro-12.9", among: devices) == "ipad-pro-12.9")
        #expect(Suggestion.nearest("portait", among: ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]) == "portrait")
        #expect(Suggestion.nearest("landscape", among: ["portrait", "landscape-left", "landscape-right"]) == nil, "two are as near")
        #expect(Suggestion.nearest("sideways", among: ["portrait", "landscape-left"]) == nil)
        #expect(Suggestion.phrase("dockd", among: ["hidden", "docked"]) == "did you mean docked? ")
        #expect(Suggestion.phrase("docked", among: ["hidden", "docked"]) == "")
    }
}
