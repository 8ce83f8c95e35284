import Foundation
import QPlayTestSupport
import Testing

/// python-mpd2 (3.0.5, the system Python's python3-mpd) against the real MPD and
/// qplayd's MPD frontend: its parser reads every response, so a malformed line fails
/// the script; the script prints what it got as JSON and the test checks it.
@Suite(.serialized, .tags(.peer), .group(.peer))
struct PythonMPDPeerTests {
    static let script = #"""
        out = {}
        c = mpd.MPDClient()
        c.timeout = 20
        c.connect(HOST, PORT)
        c.clear()
        c.add("Peer Tones/Long Player/01 First Long.mp3")
        first_id = c.addid("Peer Tones/Long Player/02 Second Long.mp3")
        c.add("Test Tones/Day Cycle/01 Morning.mp3")
        c.play(0)
        c.pause(1)
        c.seekcur("12.5")
        c.setvol(45)
        out["status"] = c.status()
        out["current"] = c.currentsong()
        out["playlistinfo"] = c.playlistinfo()
        out["second_id"] = first_id
        out["playlistid"] = c.playlistid(first_id)
        c.seekcur("+5")
        out["after_relative_seek"] = c.status()["elapsed"]

        c.command_list_ok_begin()
        c.status()
        c.currentsong()
        c.playlistinfo("1:3")
        c.ping()
        out["command_list"] = c.command_list_end()

        out["find_expression"] = sorted(s["file"] for s in c.find("(Artist == 'Test Tones')"))
        out["find_exact_case"] = c.find("(Artist == 'test tones')")
        out["search_and"] = sorted(s["file"] for s in c.search("((Title contains 'love') AND (Album == 'Love Songs'))"))
        out["search_not"] = sorted(s["file"] for s in c.search("((Artist == 'Test Tones') AND (!(Title contains 'love')))"))
        out["find_old_style"] = sorted(s["file"] for s in c.find("album", "Day Cycle"))
        out["count"] = c.count("artist", "Test Tones")
        out["list_album"] = sorted(x["album"] for x in c.list("album", "artist", "Test Tones"))
        try:
            c.find("(Artist == 'unterminated")
            out["bad_filter"] = None
        except mpd.CommandError as error:
            out["bad_filter"] = str(error)
        try:
            c.play(99)
            out["bad_position"] = None
        except mpd.CommandError as error:
            out["bad_position"] = str(error)

        # idle (python-mpd2 3 has no send_idle/fetch_idle: its idle() blocks, so it
        # waits on a thread while another client makes the change). Changes made while
        # no idle was pending are kept for the connection and returned at once.
        import threading
        other = mpd.MPDClient()
        other.timeout = 20
        other.connect(HOST, PORT)
        out["idle_accumulated"] = sorted(c.idle())
        def waiting(key, *subsystems):
            thread = threading.Thread(target=lambda: out.__setitem__(key, c.idle(*subsystems)))
            thread.start()
            return thread
        thread = waiting("idle_mixer", "mixer")
        import time
        time.sleep(0.3)
        other.setvol(60)
        thread.join(20)
        thread = waiting("idle_playlist", "playlist")
        time.sleep(0.3)
        other.setvol(61)
        other.add("Various/Straße.mp3")
        thread.join(20)
        out["final_status"] = c.status()

        # Transport, modes and queue edits through the API.
        c.play(0)
        c.next()
        out["after_next"] = c.status()["song"]
        c.previous()
        out["after_previous"] = c.status()["song"]
        c.pause(1)
        c.repeat(1); c.random(1); c.single(1); c.consume(1)
        modes = c.status()
        out["modes_on"] = [modes[k] for k in ("repeat", "random", "single", "consume")]
        c.repeat(0); c.random(0); c.single(0); c.consume(0)
        c.stop()
        out["stopped"] = c.status()["state"]
        c.clear()
        for f in ["Test Tones/Day Cycle/01 Morning.mp3", "Test Tones/Day Cycle/02 Evening.mp3",
                  "Various/Straße.mp3", "Compilations/Disc Two Opener.mp3"]:
            c.add(f)
        c.move(0, 3)
        c.delete((1, 3))
        out["after_move_delete"] = c.playlist()
        songs = c.playlistinfo()
        c.moveid(songs[1]["id"], 0)
        c.deleteid(songs[0]["id"])
        out["after_moveid_deleteid"] = c.playlist()
        out["playlist_version_grows"] = int(c.status()["playlist"]) > int(out["final_status"]["playlist"])
        other.close()
        c.close()
        print(json.dumps(out))
        """#

    @Test(arguments: MPDPeerKind.tested)
    func clientAPIAgainstServer(_ kind: MPDPeerKind) throws {
        let library = try peerLibrary()
        defer { library.remove() }
        try withPeer(kind, music: library.path.string) { peer in
            let output = try peer.python(Self.script)
            let result = try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(kind): \(output)")

            let status = try #require(result["status"] as? [String: String], "\(kind): \(result)")
            #expect(status["state"] == "pause", "\(kind): \(status)")
            #expect(status["volume"] == "45", "\(kind): \(status)")
            #expect(status["song"] == "0" && status["playlistlength"] == "3", "\(kind): \(status)")
            #expect(status["elapsed"] == "12.500", "\(kind): \(status)")
            #expect(status["time"] == "13:40", "\(kind): \(status)")
            #expect(status["nextsong"] == "1", "\(kind): \(status)")
            for key in ["repeat", "random", "single", "consume"] {
                #expect(status[key] == "0", "\(kind): \(key) in \(status)")
            }
            #expect(Double(status["duration"] ?? "") ?? 0 >= 40, "\(kind): \(status)")
            #expect(result["after_relative_seek"] as? String == "17.500", "\(kind): \(result)")

            let current = try #require(result["current"] as? [String: String], "\(kind): \(result)")
            #expect(current["file"] == "Peer Tones/Long Player/01 First Long.mp3", "\(kind): \(current)")
            #expect(current["title"] == "First Long" && current["artist"] == "Peer Tones", "\(kind): \(current)")
            #expect(current["album"] == "Long Player" && current["track"] == "1", "\(kind): \(current)")
            #expect(current["date"] == "2021" && current["genre"] == "Ambient", "\(kind): \(current)")
            #expect(current["pos"] == "0" && current["id"] == status["songid"], "\(kind): \(current)")
            #expect(current["time"] == "40", "\(kind): \(current)")

            let info = try #require(result["playlistinfo"] as? [[String: String]], "\(kind): \(result)")
            #expect(info.map { $0["pos"] } == ["0", "1", "2"], "\(kind): \(info)")
            #expect(info[1]["id"] == result["second_id"] as? String, "\(kind): \(info)")
            let byID = try #require(result["playlistid"] as? [[String: String]], "\(kind): \(result)")
            #expect(byID.map { $0["file"] } == ["Peer Tones/Long Player/02 Second Long.mp3"], "\(kind): \(byID)")

            let list = try #require(result["command_list"] as? [Any], "\(kind): \(result)")
            #expect(list.count == 4, "\(kind): \(list)")
            #expect((list.first as? [String: String])?["state"] == "pause", "\(kind): \(list)")
            #expect((list.dropFirst().first as? [String: String])?["title"] == "First Long", "\(kind): \(list)")
            #expect(((list.dropFirst(2).first as? [[String: String]]) ?? []).map { $0["pos"] } == ["1", "2"], "\(kind): \(list)")

            let testTones = [
                "Test Tones/Day Cycle/01 Morning.mp3", "Test Tones/Day Cycle/02 Evening.mp3",
                "Test Tones/Love Songs/01 Love Song.mp3", "Test Tones/Love Songs/02 Endless Love.mp3",
                "Test Tones/Love Songs/03 Love Theme.mp3",
            ]
            #expect(result["find_expression"] as? [String] == testTones, "\(kind): \(result)")
            #expect((result["find_exact_case"] as? [Any])?.isEmpty == true, "\(kind): \(result)")
            #expect(result["search_and"] as? [String] == Array(testTones[2...]), "\(kind): \(result)")
            #expect(result["search_not"] as? [String] == Array(testTones[..<2]), "\(kind): \(result)")
            #expect(result["find_old_style"] as? [String] == Array(testTones[..<2]), "\(kind): \(result)")
            #expect((result["count"] as? [String: String])?["songs"] == "5", "\(kind): \(result)")
            #expect(result["list_album"] as? [String] == ["Day Cycle", "Love Songs"], "\(kind): \(result)")
            #expect((result["bad_filter"] as? String)?.hasPrefix("[2@0] {find}") == true, "\(kind): \(result)")
            #expect((result["bad_position"] as? String)?.hasPrefix("[2@0] {play} Bad song index") == true, "\(kind): \(result)")

            let accumulated = Set(result["idle_accumulated"] as? [String] ?? [])
            #expect(accumulated.isSuperset(of: ["player", "mixer", "playlist"]), "\(kind): \(result)")
            #expect(result["idle_mixer"] as? [String] == ["mixer"], "\(kind): \(result)")
            #expect(result["idle_playlist"] as? [String] == ["playlist"], "\(kind): \(result)")
            let final = try #require(result["final_status"] as? [String: String], "\(kind): \(result)")
            #expect(result["after_next"] as? String == "1" && result["after_previous"] as? String == "0", "\(kind): \(result)")
            #expect(result["modes_on"] as? [String] == ["1", "1", "1", "1"], "\(kind): \(result)")
            #expect(result["stopped"] as? String == "stop", "\(kind): \(result)")
            #expect(
                result["after_move_delete"] as? [String]
                    == ["file: Test Tones/Day Cycle/02 Evening.mp3", "file: Test Tones/Day Cycle/01 Morning.mp3"],
                "\(kind): \(result)")
            #expect(result["after_moveid_deleteid"] as? [String] == ["file: Test Tones/Day Cycle/01 Morning.mp3"], "\(kind): \(result)")
            #expect(result["playlist_version_grows"] as? Bool == true, "\(kind): \(result)")
            #expect(final["volume"] == "61" && final["playlistlength"] == "4", "\(kind): \(final)")
        }
    }
}
