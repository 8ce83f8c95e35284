import QPlayProtocol
import Testing

/// While the output cannot be opened (no sound card, a busy device) the daemon keeps
/// the queue playing and retries; what qplay shows must not claim sound (README.md,
/// "What status says plays, plays").
@Suite struct StatusFormatOutputErrorTests {
    static func status(error: String?, state: PlayerState = .playing) -> Status {
        var status = Status(state: state, output: OutputStatus(name: "alsa:default", error: error))
        status.track = Track(id: 1, path: "a.mp3", title: "Love Song", artist: "Test Tones")
        status.queueLength = 1
        status.index = 0
        return status
    }

    @Test func theStatusBlockSaysItWaitsForTheOutput() {
        let failing = Listing.status(Self.status(error: "cannot open device: No such file or directory"))
        #expect(failing.first == "waiting for the output: Test Tones – Love Song")
        #expect(!failing.contains { $0.hasPrefix("playing") })
        #expect(failing.last == "  output alsa:default: cannot open device: No such file or directory")
        let working = Listing.status(Self.status(error: nil))
        #expect(working.first == "playing: Test Tones – Love Song")
        #expect(working.last == "  output alsa:default")
        let paused = Listing.status(Self.status(error: "cannot open device", state: .paused))
        #expect(paused.first == "paused: Test Tones – Love Song")
    }

    @Test func theIconIsAWarningNotPlay() {
        #expect(StatusFormat.render("{icon} {title}", status: Self.status(error: "cannot open device")) == "⚠ Love Song")
        #expect(StatusFormat.render("{icon} {title}", status: Self.status(error: nil)) == "▶ Love Song")
        #expect(
            StatusFormat.render("{icon}", status: Self.status(error: "cannot open device", state: .paused)) == "⏸")
        // {state} stays the daemon's word, which scripts compare.
        #expect(StatusFormat.render("{state}", status: Self.status(error: "cannot open device")) == "playing")
    }

    @Test func waybarsClassAndAltSayTheOutputFails() {
        let failing = WaybarLine(status: Self.status(error: "cannot open device"), format: "{icon} {title}")
        #expect(failing.class == "output-error" && failing.alt == "output-error")
        #expect(failing.text == "⚠ Love Song")
        #expect(failing.tooltip.hasSuffix("output alsa:default: cannot open device"), "\(failing.tooltip)")
        let working = WaybarLine(status: Self.status(error: nil), format: nil)
        #expect(working.class == "playing" && working.alt == "playing")
        #expect(!working.tooltip.contains("output"))
        let paused = WaybarLine(status: Self.status(error: "cannot open device", state: .paused), format: nil)
        #expect(paused.class == "paused")
    }
}
