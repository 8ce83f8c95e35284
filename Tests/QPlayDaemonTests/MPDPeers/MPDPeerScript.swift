import Foundation
import QPlayTestSupport
import Testing

/// A script of protocol lines run on one connection to a peer, and two peers' answers
/// to it compared: the differential tests' shared steps.
enum MPDPeerScript {
    typealias Run = (greeting: String, responses: [[String]])

    /// `script` run on the real MPD and on `kind`, both up at once and serving one copy
    /// of the peer library; with `playlists`, each has a stored-playlist folder of its
    /// own, made from the music folder's path. `beforeReading` as for `run`, with the peer.
    static func runOnMPDAnd(
        _ kind: MPDPeerKind, _ script: [String], playlists: ((String) throws -> TemporaryDirectory)? = nil,
        beforeReading: (MPDPeer, Int) throws -> Void = { _, _ in }
    ) throws -> (expected: Run, actual: Run) {
        let library = try peerLibrary()
        defer { library.remove() }
        let music = library.path.string
        let referenceFolder = try playlists?(music)
        defer { referenceFolder?.remove() }
        let candidateFolder = try playlists?(music)
        defer { candidateFolder?.remove() }
        var runs: (expected: Run, actual: Run) = (("", []), ("", []))
        try withPeer(.mpd, music: music, playlists: referenceFolder?.path.string) { reference in
            try withPeer(kind, music: music, playlists: candidateFolder?.path.string) { candidate in
                runs.expected = try run(script, on: reference) { try beforeReading(reference, $0) }
                runs.actual = try run(script, on: candidate) { try beforeReading(candidate, $0) }
            }
        }
        return runs
    }

    /// Sends each step on one connection and reads its one response, normalised.
    /// `beforeReading` runs between a step's request and its response (given the step's
    /// index), for a step that waits on what another connection does.
    static func run(
        _ script: [String], on peer: MPDPeer, beforeReading: (Int) throws -> Void = { _ in }
    ) throws -> Run {
        let (client, greeting) = try LineSocketClient.mpd(port: peer.port)
        var normalizer = MPDResponseNormalizer()
        var responses: [[String]] = []
        for (index, step) in script.enumerated() {
            try client.send(normalizer.request(step))
            try beforeReading(index)
            let response: [String]
            do {
                response = try client.mpdResponse()
            } catch {
                throw LineSocketClient.Failure(description: "\(peer.kind): no answer to `\(step)`: \(error)\n\(peer.log)")
            }
            responses.append(normalizer.response(response))
        }
        return (normalizer.response([greeting])[0], responses)
    }

    /// Expects `kind`'s answers to equal the real MPD's except for `allowed` (none when
    /// `kind` is MPD itself), and every allowance still to be needed.
    /// QPLAY_MPD_TRANSCRIPTS=DIR keeps both normalised transcripts for reading, as
    /// `<label>mpd.txt` and `<label><kind>-candidate.txt`.
    static func expectSameAnswers(
        _ script: [String], expected: [[String]], actual: [[String]], allowed: [MPDTranscriptComparison.Allowed] = [],
        kind: MPDPeerKind, transcripts label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if let folder = ProcessInfo.processInfo.environment["QPLAY_MPD_TRANSCRIPTS"] {
            for (name, responses) in [("\(label)mpd", expected), ("\(label)\(kind.rawValue)-candidate", actual)] {
                let text = zip(script, responses).map { ">>> \($0)\n\($1.joined(separator: "\n"))" }
                try (text.joined(separator: "\n") + "\n").write(
                    toFile: "\(folder)/\(name).txt", atomically: true, encoding: .utf8)
            }
        }
        let comparison = MPDTranscriptComparison(
            script: script, expected: expected, actual: actual, allowed: kind == .mpd ? [] : allowed, name: kind.rawValue)
        #expect(
            comparison.unexplained.isEmpty, "\(kind) answers unlike MPD:\n\(comparison.unexplained.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        #expect(
            comparison.stale.isEmpty,
            "allowed differences that no longer show (remove them, and from docs/MPD.md too): \(comparison.stale)",
            sourceLocation: sourceLocation)
    }
}
