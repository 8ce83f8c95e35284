import Foundation
import QPlayTestSupport
import Synchronization
import Testing

/// Regular expression filters against a real qplayd: a pattern that backtracks
/// exponentially (`^(.*)*Z$` on the library's paths) is answered at once, other clients
/// are greeted and answered meanwhile, and SIGTERM still ends the daemon cleanly.
@Suite("End to end: MPD regular expressions", .timeLimit(.minutes(3)))
struct MPDRegexEndToEndTests {
    static let attack = "search \"(file =~ '^(.*)*Z$')\""

    @Test func aBacktrackingPatternNeitherHoldsTheDaemonNorItsOtherClients() throws {
        let mpd = try MPDDaemon()
        defer { mpd.daemon.directory.remove() }
        let attacker = try mpd.client()
        let other = try mpd.client()
        // Swift's Regex took 2^length steps on each path ("Test Tones/Love Songs/01 Love
        // Song.mp3": hours), on the event loop every connection here shares.
        try attacker.send(Self.attack)
        try attacker.send("find \"(any =~ '^(a|a?)+(.*)*Z$')\"")
        // New connections, TCP and Unix, are greeted and answered while it runs (each
        // client gives up after 10 s).
        let late = try mpd.client()
        #expect(late.greeting.hasPrefix("OK MPD "))
        #expect(try late.command("ping") == ["OK"])
        let local = try MPDRawClient(path: mpd.socketPath)
        #expect(try local.command("ping") == ["OK"])
        #expect(try other.command("status").last == "OK")
        // No path ends in Z: both answers are a bare OK.
        #expect(try attacker.readAnswer() == ["OK"])
        #expect(try attacker.readAnswer() == ["OK"])

        // SIGTERM with the attack under way again: a clean exit.
        try attacker.send(Self.attack)
        #expect(mpd.daemon.stop() == 0)
    }

    /// SIGTERM while searches keep coming: a request loop whose search ran off its event
    /// loop resumes on that loop, so the loops must outlive every request loop. Shut
    /// down first, NIO dropped the resumption, and qplayd stayed up after SIGTERM (4 of 8
    /// tries in a bench run).
    @Test(arguments: 1...4)
    func sigtermDuringAStreamOfSearchesEndsTheDaemon(_ attempt: Int) throws {
        let mpd = try MPDDaemon()
        defer { mpd.daemon.directory.remove() }
        let port = mpd.port
        let running = Mutex(true)
        let done = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: done) {
                guard let attacker = try? MPDRawClient(port: port) else { return }
                while running.withLock({ $0 }) {
                    guard (try? attacker.command(Self.attack)) != nil else { return }
                }
            }
        }
        Thread.sleep(forTimeInterval: 1.5)
        let status = mpd.daemon.stop(within: 15)
        running.withLock { $0 = false }
        #expect(status == 0, "qplayd \(status.map { "exited \($0)" } ?? "still ran 15 s after SIGTERM")")
        _ = done.wait(timeout: .now() + 20)
    }

    @Test func searchIgnoresCaseFindKeepsItAndWhatNeedsBacktrackingIsRefused() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            func files(_ command: String) throws -> [String] {
                try client.command(command).filter { $0.hasPrefix("file: ") }.map { String($0.dropFirst(6)) }.sorted()
            }
            let loveSongs = [
                "Test Tones/Love Songs/01 Love Song.mp3", "Test Tones/Love Songs/02 Endless Love.mp3",
                "Test Tones/Love Songs/03 Love Theme.mp3",
            ]
            #expect(try files("search \"(file =~ 'love songs/0[1-3] ')\"") == loveSongs)
            #expect(try files("find \"(file =~ 'love songs/')\"") == [])
            #expect(try files("find \"(file =~ '^Test Tones/Love Songs/\\\\\\\\d{2} (Love|Endless)\\\\\\\\b')\"") == loveSongs)
            #expect(try files("find \"(Title =~ '^caf[eé] cr[eè]me$')\"") == [])
            #expect(try files("search \"(Title =~ '^caf[eé] cr[eè]me$')\"") == ["Chloé Dubois/Café Crème.mp3"])
            #expect(try files("find \"(file !~ '^(Test Tones|Formats|Various|Compilations)/')\"") == [
                "Chloé Dubois/Café Crème.mp3", "untagged.mp3",
            ])

            // The pattern is quoted twice (the argument, then the expression's value):
            // each backslash of the pattern is four on the line.
            let backreference = try client.command("search \"(file =~ '(o)\\\\\\\\1')\"")
            #expect(backreference.count == 1)
            #expect(backreference.first?.hasPrefix("ACK [2@0] {search} Invalid regular expression: (o)\\1 (backreferences are not supported") == true, "\(backreference)")
            let lookahead = try client.command("find \"(file =~ 'Love(?= Song)')\"")
            #expect(lookahead.first?.hasPrefix("ACK [2@0] {find} Invalid regular expression:") == true, "\(lookahead)")
            #expect(lookahead.first?.contains("lookahead is not supported") == true, "\(lookahead)")
            let huge = try client.command("list album \"(file =~ '(a{1000}){1000}')\"")
            #expect(huge.first?.contains("pattern too large") == true, "\(huge)")
            #expect(try client.command("ping") == ["OK"])
        }
    }
}
