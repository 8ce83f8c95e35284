import Foundation
import QPlayTestSupport
import Testing

/// The real `mpc` (0.34, libmpdclient) against the real MPD and against qplayd's MPD
/// frontend over the same music: every expectation holds for MPD, which proves it.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct MPCPeerTests {
    static let morning = "Test Tones/Day Cycle/01 Morning.mp3"
    static let evening = "Test Tones/Day Cycle/02 Evening.mp3"
    static let strasse = "Various/Straße.mp3"
    static let firstLong = "Peer Tones/Long Player/01 First Long.mp3"
    static let secondLong = "Peer Tones/Long Player/02 Second Long.mp3"
    static var options: Regex<(Substring, Substring, Substring, Substring, Substring)> { #/^volume: ?\d+%   repeat: (on|off)   random: (on|off)   single: (on|off)   consume: (on|off)$/# }

    @Test(arguments: MPDPeerKind.tested)
    func transportSeekVolumeAndModes(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in

            try peer.mpcLines("add", Self.firstLong, Self.secondLong, Self.morning)
            let stopped = try peer.mpcLines("status")
            #expect(stopped.count == 1, "\(kind): \(stopped)")
            #expect(stopped.first?.wholeMatch(of: Self.options) != nil, "\(kind): \(stopped)")

            var lines = try peer.mpcLines("play")
            #expect(lines.first == "Peer Tones - First Long", "\(kind): \(lines)")
            #expect(lines.dropFirst().first?.wholeMatch(of: #/\[playing\] #1/3 +0:0\d/0:4\d \(\d+%\)/#) != nil, "\(kind): \(lines)")
            #expect(try peer.mpcLines("current") == ["Peer Tones - First Long"])

            lines = try peer.mpcLines("pause")
            #expect(lines.dropFirst().first?.hasPrefix("[paused]  #1/3") == true, "\(kind): \(lines)")
            lines = try peer.mpcLines("toggle")
            #expect(lines.dropFirst().first?.hasPrefix("[playing] #1/3") == true, "\(kind): \(lines)")
            lines = try peer.mpcLines("next")
            #expect(lines.first == "Peer Tones - Second Long", "\(kind): \(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("[playing] #2/3") == true, "\(kind): \(lines)")
            // MPD's previous always goes back one entry (qplay's own 3 s restart rule is not
            // MPD's); a second `prev` right away must not merely restart.
            lines = try peer.mpcLines("prev")
            #expect(lines.first == "Peer Tones - First Long", "\(kind): \(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("[playing] #1/3") == true, "\(kind): \(lines)")

            lines = try peer.mpcLines("stop")
            #expect(lines.count == 1, "\(kind): \(lines)")
            lines = try peer.mpcLines("play", "2")
            #expect(lines.first == "Peer Tones - Second Long", "\(kind): \(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("[playing] #2/3") == true, "\(kind): \(lines)")

            // Seeks while paused, so the position mpc prints is exactly the one asked for.
            try peer.mpcLines("pause")
            for (arguments, expected) in [
                (["seek", "10"], "[paused]  #2/3   0:10/0:40 (25%)"),
                (["seek", "+20"], "[paused]  #2/3   0:30/0:40 (75%)"),
                (["seek", "-10"], "[paused]  #2/3   0:20/0:40 (50%)"),
                (["seek", "25%"], "[paused]  #2/3   0:10/0:40 (25%)"),
                (["seek", "0:35"], "[paused]  #2/3   0:35/0:40 (87%)"),
            ] {
                lines = try peer.mpcLines(arguments: arguments)
                #expect(lines.dropFirst().first == expected, "\(kind): mpc \(arguments): \(lines)")
            }

            for (arguments, expected) in [
                (["volume", "40"], "volume: 40%"), (["volume", "+10"], "volume: 50%"),
                (["volume", "-20"], "volume: 30%"),
            ] {
                lines = try peer.mpcLines(arguments: arguments)
                #expect(lines.last?.hasPrefix(expected + "   repeat: off") == true, "\(kind): mpc \(arguments): \(lines)")
            }
            #expect(try peer.mpcLines("volume") == ["volume: 30%"])

            lines = try peer.mpcLines("repeat", "on")
            #expect(lines.last == "volume: 30%   repeat: on    random: off   single: off   consume: off", "\(kind): \(lines)")
            lines = try peer.mpcLines("random", "on")
            #expect(lines.last == "volume: 30%   repeat: on    random: on    single: off   consume: off", "\(kind): \(lines)")
            lines = try peer.mpcLines("single", "on")
            #expect(lines.last == "volume: 30%   repeat: on    random: on    single: on    consume: off", "\(kind): \(lines)")
            // random changes the play order, never the positions the list shows.
            #expect(
                try peer.mpcLines("playlist") == ["Peer Tones - First Long", "Peer Tones - Second Long", "Test Tones - Morning"])
            try peer.mpcLines("repeat", "off")
            try peer.mpcLines("random", "off")
            lines = try peer.mpcLines("single", "off")
            #expect(lines.last == "volume: 30%   repeat: off   random: off   single: off   consume: off", "\(kind): \(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("[paused]  #2/3   0:35/0:40") == true, "\(kind): \(lines)")
        }
    }

    @Test(arguments: MPDPeerKind.tested)
    func queueEditsAndPlaylist(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in

            try peer.mpcLines("add", Self.firstLong, Self.morning, Self.evening)
            try peer.mpcLines("play")
            try peer.mpcLines("pause")
            // insert: right after the current entry.
            try peer.mpcLines("insert", Self.strasse)
            #expect(
                try peer.mpcLines("playlist")
                    == ["Peer Tones - First Long", "Beyoncé Tester - Straße", "Test Tones - Morning", "Test Tones - Evening"])
            try peer.mpcLines("move", "4", "2")
            #expect(
                try peer.mpcLines("playlist")
                    == ["Peer Tones - First Long", "Test Tones - Evening", "Beyoncé Tester - Straße", "Test Tones - Morning"])
            try peer.mpcLines("del", "3")
            #expect(try peer.mpcLines("playlist") == ["Peer Tones - First Long", "Test Tones - Evening", "Test Tones - Morning"])
            #expect(try peer.mpcLines("current") == ["Peer Tones - First Long"])
            // A file without tags is shown by its name, as mpc's default format does.
            try peer.mpcLines("add", "untagged.mp3")
            #expect(try peer.mpcLines("playlist").last == "untagged.mp3")
            #expect(try peer.mpcLines("-f", "%position% %file%", "playlist").last == "4 untagged.mp3")

            try peer.mpcLines("crop")
            #expect(try peer.mpcLines("playlist") == ["Peer Tones - First Long"])
            let status = try peer.mpcLines("status")
            #expect(status.dropFirst().first?.hasPrefix("[paused]  #1/1") == true, "\(kind): \(status)")

            try peer.mpcLines("add", Self.secondLong)
            try peer.mpcLines("clear")
            #expect(try peer.mpcLines("playlist") == [])
            // clear also stops: nothing but the options line is left.
            #expect(try peer.mpcLines("status").count == 1)
            // A path that is not in the library is refused and changes nothing.
            let missing = try peer.mpc(arguments: ["add", "no/such/file.mp3"])
            #expect(missing.status != 0, "\(kind): \(missing)")
            #expect(try peer.mpcLines("playlist") == [])
        }
    }

    @Test(arguments: MPDPeerKind.tested)
    func searchFindListallAndUpdate(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in

            let loveSongs = [
                "Test Tones/Love Songs/01 Love Song.mp3", "Test Tones/Love Songs/02 Endless Love.mp3",
                "Test Tones/Love Songs/03 Love Theme.mp3",
            ]
            #expect(try peer.mpcLines("search", "title", "love").sorted() == loveSongs)
            #expect(try peer.mpcLines("search", "artist", "TEST", "album", "songs").sorted() == loveSongs)
            #expect(try peer.mpcLines("search", "any", "love theme") == ["Test Tones/Love Songs/03 Love Theme.mp3"])
            #expect(
                try peer.mpcLines("find", "artist", "Test Tones", "album", "Day Cycle").sorted() == [Self.morning, Self.evening])
            // find is exact and case-sensitive.
            #expect(try peer.mpcLines("find", "artist", "test tones") == [])
            #expect(try peer.mpcLines("find", "title", "Love") == [])
            #expect(try peer.mpcLines("find", "album", "Pâtisserie") == ["Chloé Dubois/Café Crème.mp3"])
            #expect(
                try peer.mpcLines("-f", "%artist%;%album%;%title%;%track%;%date%;%genre%", "find", "title", "Ночной город")
                    == ["Ансамбль Тонов;Город;Ночной город;1;2020;Rock"])
            #expect(try peer.mpcLines("list", "album", "artist", "Test Tones").sorted() == ["Day Cycle", "Love Songs"])

            var files = try FileManager.default.subpathsOfDirectory(atPath: library.path.string)
                .filter { $0.hasSuffix(".mp3") || $0.hasSuffix(".flac") }.sorted()
            #expect(try peer.mpcLines("listall").sorted() == files)

            // A new file appears after `update --wait`.
            let added = "Peer Tones/Late Arrival.mp3"
            try library.copy(library.appending(Self.morning), to: library.appending(added))
            let update = try peer.mpc(arguments: ["update", "--wait"])
            #expect(update.status == 0, "\(kind): \(update)")
            files = (files + [added]).sorted()
            #expect(try peer.mpcLines("listall").sorted() == files)
            let stats = try peer.mpcLines("stats")
            #expect(stats.contains { $0.wholeMatch(of: #/Songs: +(\d+)/#)?.1 == "\(files.count)" }, "\(kind): \(stats)")
        }
    }

    @Test(arguments: MPDPeerKind.tested)
    func idleAndIdleloopReportChanges(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in
            try peer.mpcLines("add", Self.firstLong, Self.secondLong)

            // `mpc idle playlist` waits for one playlist change and prints it. It may not
            // have sent `idle` yet when the first add goes out, so adds repeat until it ends.
            let idle = try LineReadingProcess(
                URL(fileURLWithPath: "/usr/bin/mpc"), ["-h", peer.host, "-p", "\(peer.port)", "idle", "playlist"])
            var printed: String?
            for _ in 0..<100 where printed == nil {
                try peer.mpcLines("add", Self.morning)
                printed = idle.nextLine(timeout: 0.2)
            }
            #expect(printed == "playlist", "\(kind)")

            let loop = try LineReadingProcess(
                URL(fileURLWithPath: "/usr/bin/mpc"), ["-h", peer.host, "-p", "\(peer.port)", "idleloop"])
            defer { loop.terminate() }
            // The loop is listening once a volume change shows.
            var listening = false
            for step in 0..<100 where !listening {
                try peer.mpcLines("volume", "\(50 + step % 2)")
                listening = loop.line(timeout: 0.2, where: { $0 == "mixer" }).line != nil
            }
            #expect(listening, "\(kind): mpc idleloop printed no mixer event")

            func expectEvent(_ name: String, after arguments: String...) throws {
                try peer.mpcLines(arguments: arguments)
                let seen = loop.line(timeout: 20, where: { $0 == name })
                #expect(seen.line == name, "\(kind): no \(name) event after mpc \(arguments); saw \(seen.skipped)")
            }
            try expectEvent("player", after: "play")
            try expectEvent("player", after: "next")
            try expectEvent("player", after: "pause")
            try expectEvent("mixer", after: "volume", "70")
            try expectEvent("playlist", after: "add", Self.evening)
            try expectEvent("playlist", after: "del", "1")
            try expectEvent("options", after: "repeat", "on")
        }
    }

    @Test(arguments: MPDPeerKind.tested)
    func unixSocketServesTheSameQueue(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string, unixSocket: true) { peer in
            let socket = try #require(peer.socketPath)
            // mpc takes a host that starts with "/" as a socket path (the port is unused).
            let viaSocket = { (arguments: [String]) throws -> [String] in
                let result = try runProcess(URL(fileURLWithPath: "/usr/bin/mpc"), ["-h", socket] + arguments, killAfter: 30)
                #expect(result.status == 0, "\(kind): mpc -h \(socket) \(arguments): \(result.stderr)")
                return result.stdout.split(separator: "\n").map(String.init)
            }
            _ = try viaSocket(["add", Self.morning])
            #expect(try peer.mpcLines("playlist") == ["Test Tones - Morning"])
            try peer.mpcLines("add", Self.evening)
            #expect(try viaSocket(["playlist"]) == ["Test Tones - Morning", "Test Tones - Evening"])
            let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
            if kind == .qplayd {
                // qplayd's sockets are private to their user (MPD's follow its umask).
                #expect(mode == 0o600, "\(kind): \(String(mode ?? 0, radix: 8))")
            }
        }
    }

    /// Single and consume play out on the real clock: 3 s tracks, waits bounded only
    /// against a hang.
    @Test(arguments: MPDPeerKind.tested)
    func singleStopsAfterTheTrackAndConsumeRemovesIt(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in
            let love = ["Test Tones/Love Songs/01 Love Song.mp3", "Test Tones/Love Songs/02 Endless Love.mp3", "Test Tones/Love Songs/03 Love Theme.mp3"]
            try peer.mpcLines(arguments: ["add"] + love)

            // Consume: the track that ended leaves the list, the next one plays.
            try peer.mpcLines("consume", "on")
            try peer.mpcLines("play")
            try waitUntil("\(kind): the first track consumed", limit: 30) { try peer.mpcLines("playlist").count == 2 }
            #expect(try peer.mpcLines("playlist") == ["Test Tones - Endless Love", "Test Tones - Love Theme"])
            var status = try peer.mpcLines("status")
            #expect(status.first == "Test Tones - Endless Love", "\(kind): \(status)")
            #expect(status.dropFirst().first?.hasPrefix("[playing] #1/2") == true, "\(kind): \(status)")
            try peer.mpcLines("consume", "off")

            // Single without repeat: playback ends with this track; the list stays. MPD 0.23
            // then pauses at the start of the next entry, qplay stops (docs/MPD.md
            // lists the difference).
            status = try peer.mpcLines("single", "on")
            #expect(status.last?.hasSuffix("single: on    consume: off") == true, "\(kind): \(status)")
            try waitUntil("\(kind): playback ended after the track", limit: 30) {
                try peer.mpcLines("status").dropFirst().first?.hasPrefix("[playing]") != true
            }
            status = try peer.mpcLines("status")
            switch kind {
            case .mpd:
                #expect(status.first == "Test Tones - Love Theme", "\(kind): \(status)")
                #expect(status.dropFirst().first == "[paused]  #2/2   0:00/0:03 (0%)", "\(kind): \(status)")
            case .qplayd:
                #expect(status.count == 1, "\(kind): \(status)")
            }
            #expect(status.last?.contains("single: on") == true, "\(kind): \(status)")
            #expect(try peer.mpcLines("playlist") == ["Test Tones - Endless Love", "Test Tones - Love Theme"])
        }
    }
}
