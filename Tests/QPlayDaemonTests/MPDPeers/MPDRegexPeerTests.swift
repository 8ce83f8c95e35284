import Foundation
import QPlayTestSupport
import Testing

/// `=~`/`!~` filters against the real MPD 0.23 (PCRE2) over the same music folder: the
/// same files for each pattern, so qplay's own engine reads clients' patterns as MPD
/// does. ASCII patterns only: MPD's PCRE2 matches bytes, qplay Unicode characters.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct MPDRegexPeerTests {
    /// Each pattern quoted for the line: a pattern's backslash is four here.
    static let requests = [
        "search \"(file =~ 'love')\"",
        "find \"(file =~ 'love')\"",
        "find \"(file =~ '^Test Tones/(Love|Day) [A-Z][a-z]+/0[12] ')\"",
        "search \"(Title =~ '^(the|a)? ?LOVE\\\\\\\\b')\"",
        "find \"(file =~ '/[[:digit:]]\\\\\\\\d [A-Z]')\"",
        "find \"(file !~ '\\\\\\\\.mp3$')\"",
        "find \"(Artist =~ '^(.*)*Z$')\"",
        "find \"(any =~ '(?i)dawn|dusk')\"",
        "find \"(Album =~ '^(Day|Love) (Cycle|Songs){1,2}$')\"",
        "search \"(Title =~ 'e{2,}|o{2}')\"",
    ]

    @Test func sameFilesAsMPDForEachPattern() throws {
        let library = try peerLibrary()
        defer { library.remove() }
        var answers: [MPDPeerKind: [[String]]] = [:]
        for kind in [MPDPeerKind.mpd, .qplayd] {
            try withPeer(kind, music: library.path.string) { peer in
                let (client, _) = try LineSocketClient.mpd(port: peer.port)
                answers[kind] = try Self.requests.map { request in
                    try client.send(request)
                    let response = try client.mpdResponse()
                    return response.filter { $0.hasPrefix("file: ") || !$0.contains(": ") }.sorted()
                }
            }
        }
        let expected = try #require(answers[.mpd]), actual = try #require(answers[.qplayd])
        // Only the case-sensitive `love` and the Z at the end find nothing: the others
        // compare files, not empty answers.
        let empty = expected.indices.filter { !expected[$0].contains { $0.hasPrefix("file: ") } }
        #expect(empty == [1, 6], "\(expected)")
        for (index, request) in Self.requests.enumerated() {
            #expect(actual[index] == expected[index], "\(request)")
        }
    }
}
