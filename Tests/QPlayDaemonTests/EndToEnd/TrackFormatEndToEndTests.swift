import Foundation
import QPlayTestSupport
import Testing

/// The track object's format keys through a real qplayd: every search result and queue
/// entry carries `format`, `sample_rate`, `channels` and `bits` (null unless FLAC), as
/// the index read them from the files, and a restored queue keeps them.
@Suite struct TrackFormatEndToEndTests {
    @Test func tracksOnTheWireCarryTheirFormatAndKeepItAcrossARestart() throws {
        try withDaemon { daemon in
            let client = try daemon.client()
            let found = try client.ok("search", ["where": [[String: Any]]()])
            let tracks = try #require(found["tracks"] as? [[String: Any]])
            #expect(tracks.count >= SampleCatalog.all.count)
            for track in tracks {
                let path = try #require(track["path"] as? String)
                for key in ["format", "sample_rate", "channels", "bits"] {
                    #expect(track.keys.contains(key), "\(path) lacks \(key)")
                }
                if let sample = SampleCatalog.all.first(where: { $0.file == path }) {
                    #expect(track["format"] as? String == "mp3", "\(path)")
                    #expect(number(track["sample_rate"]) == Double(sample.sampleRate), "\(path)")
                    #expect(number(track["channels"]) == Double(sample.channels), "\(path)")
                    #expect(track["bits"] is NSNull, "\(path)")
                } else {
                    // FLAC, Vorbis and Opus samples, indexed where the daemon's decoders play them.
                    let sample = try #require(SampleCatalog.formats.first { $0.file == path }, "\(path) is no sample")
                    #expect(track["format"] as? String == sample.format, "\(path)")
                    #expect(number(track["sample_rate"]) == Double(sample.sampleRate), "\(path)")
                    #expect(number(track["channels"]) == Double(sample.channels), "\(path)")
                    #expect(number(track["bits"]) == sample.bits.map(Double.init), "\(path)")
                    #expect(number(track["duration"]) == (sample.seconds * 1000).rounded() / 1000, "\(path)")
                }
            }

            _ = try client.ok("add", ["paths": tracks.compactMap { $0["path"] as? String }])
            func queueTracks(_ client: LineSocketClient) throws -> [String: [String: Any]] {
                let queue = try client.ok("queue")
                let entries = try #require(queue["entries"] as? [[String: Any]])
                var byPath: [String: [String: Any]] = [:]
                for entry in entries {
                    let track = try #require(entry["track"] as? [String: Any])
                    byPath[try #require(track["path"] as? String)] = track
                }
                return byPath
            }
            let before = try queueTracks(client)
            #expect(before.count == tracks.count)
            #expect(daemon.stop() == 0)
            try daemon.start()
            try daemon.waitForLibrary()
            let after = try queueTracks(try daemon.client())
            #expect(after.count == before.count)
            for (path, track) in before {
                for key in ["format", "sample_rate", "channels", "bits"] {
                    #expect(
                        "\(after[path]?[key] ?? "missing")" == "\(track[key] ?? "missing")", "\(path) \(key) after a restart")
                }
            }
        }
    }
}
