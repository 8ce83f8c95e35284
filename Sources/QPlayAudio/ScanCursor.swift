/// Audible scrubbing: play a fragment, then jump so that the position moves at `rate`
/// × real time. At rate +4 each 100 ms fragment is followed by a jump of +300 ms; at
/// −4 by a jump of −500 ms. Counted in decoded frames, not wall time, so the audio and
/// the position are exact and the speed follows the device's clock.
struct ScanCursor {
    let rate: Double
    let fragmentFrames: Int
    private(set) var playedInFragment = 0
    /// Scanning backward reached the start: no more jumps, playback goes on from 0.
    private(set) var pinnedAtStart = false

    init(rate: Double, fragmentFrames: Int) {
        self.rate = rate
        self.fragmentFrames = fragmentFrames
    }

    /// How many frames to decode before the next jump.
    var framesUntilJump: Int { pinnedAtStart ? Int.max : fragmentFrames - playedInFragment }

    /// Records `frames` decoded at the source's position; answers the frame to jump to
    /// when the fragment is complete (`nextFrame`: the frame after the fragment).
    mutating func advance(by frames: Int, nextFrame: Int) -> Int? {
        guard !pinnedAtStart else { return nil }
        playedInFragment += frames
        guard playedInFragment >= fragmentFrames else { return nil }
        playedInFragment = 0
        let jump = Int(((rate - 1) * Double(fragmentFrames)).rounded())
        guard jump != 0 else { return nil }
        let target = nextFrame + jump
        if target <= 0 {
            pinnedAtStart = true
            return 0
        }
        return target
    }

    /// After a seek or an item change the fragment starts afresh.
    mutating func restart() {
        playedInFragment = 0
        pinnedAtStart = false
    }
}
