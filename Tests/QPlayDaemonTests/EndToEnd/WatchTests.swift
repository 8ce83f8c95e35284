import Foundation
import QPlayTestSupport
import Testing

/// `qplay watch --waybar` as a status bar runs it: a child process whose output is read
/// line by line.
@Suite("End to end: qplay watch", .timeLimit(.minutes(2)))
struct WatchTests {
    /// A waybar line: a JSON object with the keys waybar reads, class and alt the state.
    func waybar(_ line: String) -> [String: Any]? {
        guard let object = try? parseObject(line),
            object["text"] is String, object["tooltip"] is String,
            let cls = object["class"] as? String, object["alt"] as? String == cls,
            object["percentage"] is NSNumber
        else { return nil }
        return object
    }

    @Test func waybarLinesFollowChangesAndSurviveARestart() throws {
        do {
            try withDaemon { daemon in
                try daemon.qplayOK("add", "love")
                let watch = try LineReadingProcess(
                    BuiltProducts.url("qplay"), ["watch", "--waybar"], environment: daemon.environment)
                defer { watch.terminate() }
                var seen: [String] = []
                func expectLine(_ what: String, _ predicate: @escaping ([String: Any]) -> Bool) {
                    let (line, skipped) = watch.line { line in waybar(line).map(predicate) ?? false }
                    seen += skipped
                    #expect(line != nil, "no waybar line for \(what); got \(seen)")
                    if let line { seen.append(line) }
                }

                expectLine("the first track") { ($0["text"] as? String)?.contains("Love Song") == true && $0["class"] as? String == "playing" }
                try daemon.qplayOK("next")
                expectLine("the track change") { ($0["text"] as? String)?.contains("Endless Love") == true }
                try daemon.qplayOK("pause")
                expectLine("pause") { $0["class"] as? String == "paused" }
                try daemon.qplayOK("play")
                expectLine("resume") { $0["class"] as? String == "playing" && ($0["text"] as? String)?.contains("Endless Love") == true }

                // The daemon goes away and comes back (restored paused): watch follows.
                #expect(daemon.stop() == 0)
                expectLine("the daemon's departure") { $0["class"] as? String != "playing" }
                try daemon.start()
                expectLine("the restarted daemon") {
                    $0["class"] as? String == "paused" && ($0["text"] as? String)?.contains("Endless Love") == true
                }
                try daemon.qplayOK("play")
                expectLine("resume after the restart") { $0["class"] as? String == "playing" }
                #expect(watch.isRunning)
                for line in seen {
                    #expect(waybar(line) != nil, "not a waybar line: \(line)")
                }
            }
        }
    }
}
