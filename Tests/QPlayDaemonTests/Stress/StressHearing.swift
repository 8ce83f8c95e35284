import QPlayTestSupport

/// Compares what the capture says was heard with what the daemon's player events said
/// played (docs/BEHAVIOUR.md, Audio: what status says plays is what the output receives).
///
/// The events say which entries became current and for how long they were said to be
/// playing; the capture says which tones were heard, in order. Order is all the two
/// share (the capture has no clock of the events), so the check is: every tone heard
/// long enough to tell belongs, in order, to an entry that was current, and every entry
/// said to be playing for long enough was heard. Entries played only briefly (skipped
/// at once, a truncated file, a scan through a short track) may go unheard; the same
/// fixture twice in a row sounds as one run. A tone heard where no entry of its fixture
/// played — a removed entry the audio side still played, a stale successor — has no
/// place in the order and fails the check.
enum StressHearing {
    /// Frames a tone must sound without a break to count as heard: three 50 ms windows.
    static let minimumFrames = 3 * 2205
    /// An entry said to be playing this long must have been heard: the shortest run that
    /// counts (150 ms) with room for the output's 100 ms of audio written ahead and for
    /// events read late on a loaded machine.
    static let mustHearSeconds = 0.5

    /// nil when the capture fits the visits; else what did not fit.
    static func mismatch(visits allVisits: [Visit], heard: [ToneRun], sampleRate: Int = 44100) -> String? {
        // A visit said to play for a moment is dropped, unless its file was damaged: a
        // file cut to a few KB is handed to the output whole at once, so its `started`
        // and its end come together, yet its fraction of a second is then heard.
        let visits = allVisits.filter { $0.playing > 0.02 || $0.damaged }
        let n = visits.count
        let m = heard.count
        func mustHear(_ i: Int) -> Bool {
            visits[i].playing >= mustHearSeconds && !visits[i].failed && !visits[i].damaged && !visits[i].scanned
        }
        func at(_ run: ToneRun) -> String {
            "fixture \(run.tone + 1) at \(String(format: "%.2f", Double(run.startFrame) / Double(sampleRate))) s for \(String(format: "%.2f", Double(run.frames) / Double(sampleRate))) s"
        }
        let expectedText = visits.map(\.description).joined(separator: " ")
        let heardText = heard.map { "\($0.tone + 1)" }.joined(separator: " ")
        let context = "\n  said to play: \(expectedText)\n  heard:        \(heardText)"

        guard m > 0 else {
            if let missing = visits.indices.first(where: mustHear) {
                return "nothing was heard, but \(visits[missing]) was said to play\(context)"
            }
            return nil
        }
        // reach[j][i]: heard runs 0...j can be matched in order with run j on visit i,
        // every visit passed over being one that may go unheard or the same fixture as
        // the run before it (a repeat sounds as one run).
        var reach = Array(repeating: Array(repeating: false, count: n), count: m)
        for i in 0..<n {
            guard visits[i].fixture == heard[0].tone else {
                if mustHear(i) { break }
                continue
            }
            reach[0][i] = true
            if mustHear(i) { break }
        }
        if !reach[0].contains(true) {
            return "heard \(at(heard[0])) first, which fits no entry said to play\(context)"
        }
        for j in 1..<m {
            for i in 0..<n where reach[j - 1][i] {
                var k = i + 1
                while k < n {
                    if visits[k].fixture == heard[j].tone { reach[j][k] = true }
                    if mustHear(k) && visits[k].fixture != heard[j - 1].tone { break }
                    k += 1
                }
            }
            if !reach[j].contains(true) {
                // What stood in the way: the first entry after the last place the run before
                // could be that was said to play long enough and was not heard.
                let last = reach[j - 1].lastIndex(of: true) ?? 0
                let blocker = ((last + 1)..<n).first { mustHear($0) && visits[$0].fixture != heard[j - 1].tone }
                let why = blocker.map { "; \(visits[$0]) was said to play before it but not heard" } ?? ""
                return "heard \(at(heard[j])) after \(at(heard[j - 1])), which fits no entry said to play then\(why)\(context)"
            }
        }
        // Everything after the last run's visit must be allowed to go unheard.
        var firstUnheard: Int?
        for i in (0..<n).reversed() where reach[m - 1][i] {
            let missing = ((i + 1)..<n).first { mustHear($0) && visits[$0].fixture != heard[m - 1].tone }
            guard let missing else { return nil }
            firstUnheard = min(firstUnheard ?? n, missing)
        }
        let missing = visits[firstUnheard ?? n - 1]
        return "\(missing) was said to play but not heard after \(at(heard[m - 1]))\(context)"
    }
}
