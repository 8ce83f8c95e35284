import QPlayLibrary
import QPlayModel
import SystemPackage
import Testing

@Suite struct TextFoldingTests {
    @Test(arguments: [
        ("Beyoncé", "beyonce"), ("CAFE", "cafe"), ("café", "cafe"), ("Straße", "strasse"),
        ("École", "ecole"), ("Zoë", "zoe"), ("ÅNGSTRÖM", "angstrom"), ("plain ascii 42", "plain ascii 42"),
    ])
    func foldsCaseAndDiacritics(_ input: String, _ expected: String) {
        #expect(TextFolding.fold(input) == expected)
    }

    @Test func decomposedAndComposedAccentsFoldAlike() {
        #expect(TextFolding.fold("Cafe\u{301}") == TextFolding.fold("Caf\u{E9}"))
    }

    @Test func scriptsWithoutCaseOrMarksAreUnchanged() {
        for text in ["夜の歌", "東京", "ночной город", "звезда", "서울"] {
            #expect(TextFolding.fold(text) == text)
        }
        // Cyrillic capitals fold to small letters, so either spelling finds the title.
        #expect(TextFolding.fold("Ночной Город") == TextFolding.fold("НОЧНОЙ ГОРОД"))
    }

    @Test func predicatesIgnoreCaseAndDiacriticsBothWays() {
        let track = Track(id: 1, path: "Various/Straße.mp3", title: "Straße", artist: "Beyoncé Tester")
        #expect(Predicate(.artist, .contains, "beyonce").matches(track))
        #expect(Predicate(.artist, .contains, "BEYONCÉ").matches(track))
        #expect(Predicate(.title, .equals, "strasse").matches(track))
        #expect(Predicate(.title, .equals, "STRASSE").matches(track))
        #expect(!Predicate(.title, .equals, "stras").matches(track))
        #expect(Predicate(.title, .contains, "stras").matches(track))
        #expect(Predicate(.path, .contains, "various/").matches(track))
        #expect(!Predicate(.album, .contains, "x").matches(track))
        #expect(Predicate(.album, .equals, "").matches(track))  // absent tag is the empty text
    }

    @Test func queryNeedsEveryPredicate() {
        let track = Track(id: 1, path: "a.mp3", title: "Café Crème", artist: "Chloé Dubois", genre: "Chanson")
        #expect(Query.all.matches(track))
        #expect(Query([Predicate(.title, .contains, "cafe"), Predicate(.artist, .contains, "chloe")]).matches(track))
        #expect(!Query([Predicate(.title, .contains, "cafe"), Predicate(.genre, .equals, "rock")]).matches(track))
        #expect(Query.titleContains("creme").matches(track))
    }
}
