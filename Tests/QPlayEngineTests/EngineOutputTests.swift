import QPlayEngine
import Testing

@Suite struct EngineOutputTests {
    @Test func appendKeepsTheAudioOrderAndEachEventOnce() {
        var first = EngineOutput(audio: [.pause], events: [.player])
        first.append(EngineOutput(audio: [.stop, .volume(3)], events: [.queue, .player]))
        #expect(first.audio == [.pause, .stop, .volume(3)])
        #expect(first.events == [.player, .queue])
    }
}
