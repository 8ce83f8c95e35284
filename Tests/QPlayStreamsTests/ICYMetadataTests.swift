import QPlayStreams
import Testing

@Suite struct ICYMetadataTests {
    /// A block as a server sends it: the text padded with NULs to a multiple of 16.
    static func block(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (16 - bytes.count % 16) % 16)
    }

    static func parse(_ text: String) -> ICYMetadata { ICYMetadata.parse(block(Array(text.utf8))) }

    @Test func titleAndURL() {
        let metadata = Self.parse("StreamTitle='Nina Simone - Sinnerman';StreamUrl='http://radio.example/now';")
        #expect(metadata.title == "Nina Simone - Sinnerman")
        #expect(metadata.url == "http://radio.example/now")
        #expect(metadata.fields.map(\.key) == ["StreamTitle", "StreamUrl"])
    }

    @Test func quotesInsideTheTitle() {
        #expect(Self.parse("StreamTitle='Guns N' Roses - Don't Cry';StreamUrl='';").title == "Guns N' Roses - Don't Cry")
        #expect(Self.parse("StreamTitle='Rock';n';Roll';").title == "Rock';n';Roll")
        #expect(Self.parse("StreamTitle='It's';").title == "It's")
        #expect(Self.parse("StreamTitle='ends with a quote'';").title == "ends with a quote'")
        #expect(Self.parse("StreamTitle=\"double \"quoted\"\";").title == "double \"quoted\"")
    }

    @Test func missingAndEmptyFields() {
        let onlyURL = Self.parse("StreamUrl='http://x.example/';")
        #expect(onlyURL.title == nil)
        #expect(onlyURL.url == "http://x.example/")
        let empty = Self.parse("StreamTitle='';")
        #expect(empty.title == "")
        #expect(empty.url == nil)
        #expect(Self.parse("").fields.isEmpty)
        #expect(ICYMetadata.parse([UInt8](repeating: 0, count: 32)).fields.isEmpty)
    }

    @Test func cutShortAndUnquoted() {
        #expect(Self.parse("StreamTitle='no closing quote").title == "no closing quote")
        #expect(Self.parse("StreamTitle='no semicolon'").title == "no semicolon")
        #expect(Self.parse("StreamTitle=bare words;StreamUrl=x;").title == "bare words")
        #expect(Self.parse("StreamTitle=").title == "")
        #expect(Self.parse("garbage without equals").fields.isEmpty)
    }

    @Test func otherKeysAreKeptAndCaseIsIgnored() {
        let metadata = Self.parse("streamtitle='lower';adw_ad='true';durationMilliseconds='30000';")
        #expect(metadata.title == "lower")
        #expect(metadata["ADW_AD"] == "true")
        #expect(metadata["durationMilliseconds"] == "30000")
    }

    @Test func utf8AndLatin1() {
        #expect(Self.parse("StreamTitle='Björk – Jóga';").title == "Björk – Jóga")
        // Latin-1 é and ü: not valid UTF-8.
        let latin1 = Array("StreamTitle='Caf".utf8) + [0xE9] + Array(" M".utf8) + [0xFC] + Array("ller';".utf8)
        #expect(ICYMetadata.parse(Self.block(latin1)).title == "Café Müller")
    }

    /// What Icecast sends for an MP3 mount's title "Nina's Tune – Ünïcode": Latin-1, and
    /// the dash Latin-1 lacks as a numeric reference.
    @Test func numericReferencesAsIcecastWritesThem() {
        let bytes = Array("StreamTitle='Nina's Tune &#8211; ".utf8) + [0xDC, 0x6E, 0xEF] + Array("code';".utf8)
        #expect(ICYMetadata.parse(Self.block(bytes)).title == "Nina's Tune – Ünïcode")
        #expect(Self.parse("StreamTitle='&#x1F3B5; &#233;&#xe9; AT&T &#; &#0; &#99999999; &#38'; ").title
            == "🎵 éé AT&T &#; &#0; &#99999999; &#38")
    }

    @Test func paddingAndWhatFollowsTheFirstNULAreIgnored() {
        let bytes = Array("StreamTitle='a';".utf8) + [0, 0] + Array("StreamUrl='junk';".utf8)
        #expect(ICYMetadata.parse(bytes).fields.map(\.key) == ["StreamTitle"])
    }
}
