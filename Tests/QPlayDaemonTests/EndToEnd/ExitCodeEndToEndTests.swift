import Foundation
import QPlayTestSupport
import Testing

/// The exit codes (README.md) of the real qplay: 3 with no daemon, 2 for usage, 1 for refusals.
@Suite("End to end: qplay exit codes", .timeLimit(.minutes(2)))
struct ExitCodeEndToEndTests {
    @Test func noDaemonExits3SayingWhereItLookedAndHowToStartOne() throws {
        do {
            let directory = TemporaryDirectory("qplay-e2e-nodaemon")
            defer { directory.remove() }
            let socket = directory.appending("nobody.sock").string
            let viaEnvironment = try runProcess(BuiltProducts.url("qplay"), ["status"], environment: ["QPLAY_SOCKET": socket])
            #expect(viaEnvironment.status == 3)
            #expect(viaEnvironment.stderr.contains(socket))
            #expect(viaEnvironment.stderr.contains("QPLAY_SOCKET"))
            #expect(viaEnvironment.stderr.contains("qplayd"), "says how to start one: \(viaEnvironment.stderr)")
            let viaFlag = try runProcess(BuiltProducts.url("qplay"), ["next", "--socket", socket])
            #expect(viaFlag.status == 3)
            #expect(viaFlag.stderr.contains(socket))
            #expect(viaFlag.stderr.contains("--socket"))
            #expect(viaFlag.stdout.isEmpty)
        }
    }

    @Test func usageErrorsExit2AndRefusalsExit1() throws {
        do {
            try withDaemon { daemon in
                for arguments in [["frobnicate"], ["vol", "loud"], ["seek"], ["repeat", "sometimes"], ["jump", "0"]] {
                    let result = try daemon.qplay(arguments: arguments)
                    #expect(result.status == 2, "qplay \(arguments): \(result.status) \(result.stderr)")
                    #expect(!result.stderr.isEmpty)
                }
                let nothing = try daemon.qplay("add", "zzzz-nothing")
                #expect(nothing.status == 1)
                #expect(nothing.stderr.contains("zzzz-nothing"), "\(nothing.stderr)")
                #expect(try daemon.qplayJSON("status")["queue_length"] as? Int == 0, "a failed add changes nothing")
                try daemon.qplayOK("add", "love")
                let length = try daemon.qplayJSON("status")["queue_length"] as? Int ?? 0
                let entries = length == 1 ? "1 entry" : "\(length) entries"
                // Positions past the end are told in the 1-based terms of `qplay queue`.
                for arguments in [["jump", "999"], ["remove", "999"], ["move", "1", "999"]] {
                    let missing = try daemon.qplay(arguments: arguments)
                    #expect(missing.status == 1)
                    #expect(
                        missing.stderr == "qplay: no entry at position 999; the queue has \(entries) (see `qplay queue`)\n",
                        "qplay \(arguments): \(missing.stderr)")
                }
            }
        }
    }
}
