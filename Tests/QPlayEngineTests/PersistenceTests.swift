import Foundation
import QPlayEngine
import QPlayModel
import SystemPackage
import Testing

@Suite struct PersistenceTests {
    static func roundTrip(_ state: EnginePersistentState) throws -> EnginePersistentState {
        try JSONDecoder().decode(EnginePersistentState.self, from: JSONEncoder().encode(state))
    }

    @Test func aRestoredEngineIsPausedAtTheSavedPositionWithTheSameQueue() throws {
        var h = Harness()
        try h.add(tracks("A", "B", "C"))
        try h.act { try $0.jump(index: 1, now: $1, position: $2) }
        try h.add(tracks("D"))
        try h.act { try $0.move(from: 3, to: 2, now: $1, position: $2) }
        h.act { $0.setVolume(30, now: $1, position: $2) }
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        let saved = try Self.roundTrip(h.engine.persistentState(position: 42.5))
        #expect(saved.position == 42.5)

        var restored = PlayerEngine(configuration: h.engine.configuration, restoring: saved)
        let status = restored.status(position: 42.5)
        #expect(status.state == .paused)
        #expect(status.entry == h.status.entry)
        #expect(status.index == 1)
        #expect(status.queueModified)
        #expect(status.volume == 30)
        #expect(status.repeatMode == .all)
        #expect(restored.queue == h.engine.queue)

        let attach = restored.attachAudio(position: saved.position)
        let b = h.engine.queue.entries[1]
        let d = h.engine.queue.entries[2]
        #expect(attach.audio == [
            .volume(30),
            .play(PlaybackRequest(token: 1, entry: b), from: 42.5, paused: true),
            .setNext(PlaybackRequest(token: 2, entry: d)),  // modified: D follows B in the collection
        ])
        // The next track change installs, and new entries continue the id sequence.
        _ = restored.next(now: .zero, position: 42.5)
        #expect(restored.status(position: 0).entry == d)
        #expect(restored.status(position: 0).queueModified == false)
        #expect(restored.status(position: 0).state == .paused)
        let added = try restored.add(tracks("E"), now: .zero, position: 0)
        #expect(added.started == false)
        #expect(restored.queue.entries.last?.id == 5)
    }

    @Test func theInstalledQueueAndShuffleOrderSurvive() throws {
        var original = try Self.queue(shuffleSeed: 9)
        original.act { $0.setShuffle(true, now: $1, position: $2) }
        original.run(11)  // third entry of the shuffled round
        try original.add([track("G", seconds: 5)])  // modified: dealt into this round at install
        var copy = Harness(EngineConfiguration(shuffleSeed: 1234))
        copy.engine = PlayerEngine(
            configuration: copy.engine.configuration,
            restoring: try Self.roundTrip(original.engine.persistentState(position: original.position)))
        copy.send(copy.engine.attachAudio(position: original.position))
        copy.send(copy.engine.play(now: copy.clock.now, position: copy.position))
        copy.audio.heard = []
        original.audio.heard = []
        original.run(30)
        copy.run(30)
        #expect(copy.audio.heard == original.audio.heard)
        #expect(copy.audio.heard.count == 4)
        #expect(copy.engine.status(position: 0).state == .stopped)
    }

    static func queue(shuffleSeed: UInt64) throws -> Harness {
        var h = Harness(EngineConfiguration(shuffleSeed: shuffleSeed))
        try h.add(ShuffleTests.six.map { track($0, seconds: 5) })
        return h
    }

    @Test func trackFieldsAndNonUTF8PathBytesSurvive() throws {
        let bytes: [CChar] = [0x43, 0x61, 0x66, -23, 0x2E, 0x6D, 0x70, 0x33, 0]  // "Caf\xE9.mp3"
        let path = bytes.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
        let odd = Track(
            id: 9, path: path, title: "Café", artist: "Chloé", album: "X", albumArtist: "Y",
            genre: "Z", trackNumber: 3, discNumber: 1, year: 2001, duration: 3.25, bitrateKbps: 192,
            sampleRate: 44100, channels: 2,
            replayGain: ReplayGain(trackGain: -6.5, trackPeak: 0.9, albumGain: -7, albumPeak: 1),
            fileSize: 1234, modificationTime: 99)
        var engine = PlayerEngine()
        _ = try engine.add([odd, track("B")], now: .zero, position: 0)
        let restored = PlayerEngine(restoring: try Self.roundTrip(engine.persistentState(position: 1)))
        #expect(restored.queue.entries.first?.track == odd)
        #expect(restored.queue.entries.first?.track.path == path)
    }

    @Test func aStoppedEngineRestoresStopped() throws {
        var engine = PlayerEngine()
        _ = try engine.add(tracks("A"), now: .zero, position: 0)
        _ = engine.next(now: .zero, position: 0)  // the queue ends
        var restored = PlayerEngine(restoring: try Self.roundTrip(engine.persistentState))
        #expect(restored.status(position: 0).state == .stopped)
        #expect(restored.status(position: 0).entry == nil)
        #expect(restored.queue.entries.count == 1)
        #expect(restored.attachAudio(position: 0).audio == [.volume(100)])
    }
}
