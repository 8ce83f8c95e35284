import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// The README's status-bar recipes as the bars run them, against a real qplayd: the
/// real i3blocks (it needs no display: it prints the i3bar protocol to its standard
/// output) and the `exec` line of the waybar module through `sh -c`, as waybar starts
/// it. The recipes are read from README.md, so what is tested is what users copy.
@Suite("End to end: status bars", .serialized, .timeLimit(.minutes(3)))
struct StatusBarTests {
    /// A short track, a longer one, and one whose tags hold markup characters.
    static let fixtures = [
        ToneFixture(file: "short.mp3", title: "Short Song", toneHz: 330, seconds: 5, artist: "Bar Tones"),
        ToneFixture(file: "long.mp3", title: "Long Track", toneHz: 440, seconds: 12, artist: "Bar Tones"),
        ToneFixture(
            file: "rock.mp3", title: "Rock & Roll <Live>", toneHz: 523, seconds: 12, artist: "Simon & Garfunkel"),
    ]

    /// i3blocks' `full_text` for the qplay block follows the player: the time of a new
    /// track is its own (not the previous track's end), pause shows, `&` and `<` come
    /// through intact, and stop and a daemon that goes away clear the block.
    @Test func i3blocksFollowsThePlayer() throws {
        let music = TemporaryDirectory("bars-music")
        defer { music.remove() }
        _ = try ToneFixtures.generate(Self.fixtures, in: music)
        try withDaemon(music: music.path.string) { daemon in
            let config = daemon.directory.appending("i3blocks.conf")
            try daemon.directory.write(Array(try Self.readmeBlock(after: "i3blocks (").utf8), to: config)
            let bar = try LineReadingProcess(
                URL(fileURLWithPath: "/usr/bin/i3blocks"), ["-c", config.string], environment: Self.barEnvironment(daemon),
                ownGroup: true)
            defer { bar.terminate() }

            var seen: [String] = []
            // i3blocks prints a line on every change of any block, each second while playing:
            // the wait is bounded by a deadline, not by a silence.
            func expectText(_ what: String, _ predicate: (String) -> Bool) -> String? {
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline, let line = bar.nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
                    seen.append(line)
                    if let text = Self.i3blocksText(line), predicate(text) { return text }
                }
                Issue.record("i3blocks never showed \(what); its output:\n\(seen.suffix(20).joined(separator: "\n"))")
                return nil
            }

            try daemon.client().ok("add", ["paths": ["short.mp3", "long.mp3", "rock.mp3"]])
            let first = expectText("the first track, playing") { $0.hasPrefix("▶ Bar Tones – Short Song ") }
            #expect(first.flatMap(Self.shownPosition) != nil, "\(first ?? "")")

            // The short track ends by itself: the first line of the next one shows its own
            // time, not where the short one ended (0:05).
            let change = expectText("the track change") { $0.contains("Long Track") }
            if let change {
                #expect(change.hasPrefix("▶ Bar Tones – Long Track "))
                let position = Self.shownPosition(change)
                #expect(position != nil && position! < 3, "after a 5 s track the next one showed \(change)")
            }

            try daemon.qplayOK("pause")
            _ = expectText("pause") { $0.hasPrefix("⏸ Bar Tones – Long Track ") }
            try daemon.qplayOK("play")
            _ = expectText("resume") { $0.hasPrefix("▶ Bar Tones – Long Track ") }

            try daemon.qplayOK("next")
            let rock = expectText("the title with & and <") { $0.contains("Rock") }
            #expect(rock?.hasPrefix("▶ Simon & Garfunkel – Rock & Roll <Live> ") == true, "\(rock ?? "")")

            try daemon.qplayOK("stop")
            _ = expectText("the cleared block when stopped") { $0 == " " }
            try daemon.qplayOK("play")
            _ = expectText("playing again") { $0.hasPrefix("▶ ") }

            #expect(daemon.stop() == 0)
            _ = expectText("the cleared block with the daemon down") { $0 == " " }
            try daemon.start()
            _ = expectText("the restarted daemon") { $0.contains("Rock & Roll <Live>") }
        }
    }

    /// The README's waybar `exec`: a title and artist with `&` and `<` give `text` and
    /// `tooltip` that are valid Pango markup and read back as the tags.
    @Test func waybarTextAndTooltipAreEscapedPango() throws {
        let music = TemporaryDirectory("bars-music")
        defer { music.remove() }
        _ = try ToneFixtures.generate(Array(Self.fixtures.suffix(1)), in: music)
        try withDaemon(music: music.path.string) { daemon in
            let module = try parseObject("{" + Self.readmeBlock(after: "waybar (") + "}")
            let exec = try #require((module["custom/qplay"] as? [String: Any])?["exec"] as? String)
            #expect(exec.hasPrefix("exec qplay watch --waybar"))
            let watch = try LineReadingProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", exec], environment: Self.barEnvironment(daemon))
            defer { watch.terminate() }

            try daemon.client().ok("add", ["paths": ["rock.mp3"]])
            let (line, skipped) = watch.line { $0.contains("Rock") && $0.contains("\"playing\"") }
            let object = try parseObject(try #require(line, "no playing line; got \(skipped)"))
            let text = try #require(object["text"] as? String)
            let tooltip = try #require(object["tooltip"] as? String)
            #expect(text.hasPrefix("Simon &amp; Garfunkel – Rock &amp; Roll &lt;Live&gt;  0:0"), "\(text)")
            #expect(tooltip.hasPrefix("Rock &amp; Roll &lt;Live&gt;\nSimon &amp; Garfunkel — "), "\(tooltip)")
            for markup in [text, tooltip] {
                let unescaped = Self.pangoText(markup)
                #expect(unescaped != nil, "not valid Pango text: \(markup)")
                #expect(unescaped?.contains("Rock & Roll <Live>") == true)
                #expect(unescaped?.contains("Simon & Garfunkel") == true)
            }

            // Stopped and with no daemon the text is empty: with the README's `{icon}{}`
            // (the icons carry their own space) waybar then hides the module.
            #expect((module["custom/qplay"] as? [String: Any])?["format"] as? String == "{icon}{}")
            try daemon.qplayOK("stop")
            let stopped = watch.line { $0.contains("\"stopped\"") }.line
            #expect(stopped.flatMap { try? parseObject($0)["text"] as? String } == "", "\(stopped ?? "no stopped line")")
            #expect(daemon.stop() == 0)
            let offline = watch.line { $0.contains("\"offline\"") }.line
            #expect(offline.flatMap { try? parseObject($0)["text"] as? String } == "", "\(offline ?? "no offline line")")
        }
    }

    /// The README's one-shot line, as a bar runs it every few seconds through `sh -c`:
    /// the track when playing, and nothing at all, on either stream, with no daemon.
    @Test func oneShotRecipeIsQuietWithoutADaemon() throws {
        try withDaemon { daemon in
            let readme = try String(contentsOfFile: SampleCatalog.repositoryRoot.appending("README.md").string, encoding: .utf8)
            let intro = try #require(readme.range(of: "For a one-shot line"))
            let open = try #require(readme[intro.upperBound...].range(of: "`qplay status"))
            let close = try #require(readme[open.upperBound...].firstIndex(of: "`"))
            let command = String(readme[readme.index(after: open.lowerBound)..<close])
            #expect(command.hasSuffix("2>/dev/null"))
            try daemon.qplayOK("add", "love")
            try daemon.qplayOK("pause")
            let shown = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: Self.barEnvironment(daemon))
            #expect(shown.status == 0)
            #expect(shown.stdout == "⏸ Test Tones – Love Song\n", "\(shown.stdout)")
            #expect(daemon.stop() == 0)
            let away = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: Self.barEnvironment(daemon))
            #expect(away.status == 3)
            #expect(away.stdout.isEmpty && away.stderr.isEmpty, "stdout \(away.stdout) stderr \(away.stderr)")
        }
    }

    /// A bar that quits closes the pipe `watch` writes to: `watch` exits with status 0
    /// at once, also when it has nothing to write (paused, no daemon).
    @Test func watchExitsWhenItsOutputClosesWhileIdle() throws {
        try withDaemon { daemon in
            try daemon.qplayOK("add", "love")
            try daemon.qplayOK("pause")

            let paused = try LineReadingProcess(
                BuiltProducts.url("qplay"), ["watch", "--format", "{state} {title}"], environment: daemon.environment)
            defer { paused.terminate() }
            let (line, skipped) = paused.line { $0.hasPrefix("paused ") }
            #expect(line != nil, "no paused line; got \(skipped)")
            paused.closeOutput()
            #expect(paused.exitStatus(within: 20) == 0, "watch outlived its closed output while paused")

            #expect(daemon.stop() == 0)
            let offline = try LineReadingProcess(
                BuiltProducts.url("qplay"), ["watch", "--i3blocks"], environment: daemon.environment)
            defer { offline.terminate() }
            #expect(offline.nextLine() == " ", "the line for no daemon")
            offline.closeOutput()
            #expect(offline.exitStatus(within: 20) == 0, "watch outlived its closed output with no daemon")
        }
    }

    // MARK: helpers

    /// The daemon's environment, with the built `qplay` first on PATH as an installed
    /// one would be.
    static func barEnvironment(_ daemon: DaemonProcess) -> [String: String] {
        var environment = daemon.environment
        environment["PATH"] = BuiltProducts.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// The first fenced block in README.md after the line that starts with `lead`.
    static func readmeBlock(after lead: String) throws -> String {
        let readme = try String(contentsOfFile: SampleCatalog.repositoryRoot.appending("README.md").string, encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let intro = lines.firstIndex(where: { $0.hasPrefix(lead) }),
            let open = lines[intro...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else {
            throw LineSocketClient.Failure(description: "README.md has no fenced block after \"\(lead)\"")
        }
        return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }

    /// The `full_text` of the block named qplay in one line of i3blocks' output
    /// (`[{...},...]`, after the first with a leading comma); nil for other lines.
    static func i3blocksText(_ line: String) -> String? {
        let body = line.hasPrefix(",") ? String(line.dropFirst()) : line
        guard let blocks = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]] else { return nil }
        return blocks.first { $0["name"] as? String == "qplay" }?["full_text"] as? String
    }

    /// The seconds of the `M:SS/` position in a line.
    static func shownPosition(_ text: String) -> Int? {
        guard let slash = text.lastIndex(of: "/"), let space = text[..<slash].lastIndex(of: " ") else { return nil }
        let parts = text[text.index(after: space)..<slash].split(separator: ":")
        guard parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]) else { return nil }
        return minutes * 60 + seconds
    }

    /// Markup without tags read as Pango reads it: nil when a `<`, `>` or an `&` that
    /// starts no entity is left (Pango would refuse it and show nothing).
    static func pangoText(_ markup: String) -> String? {
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'"]
        var text = ""
        var rest = Substring(markup)
        while let character = rest.first {
            switch character {
            case "<", ">": return nil
            case "&":
                guard let (entity, value) = entities.first(where: { rest.hasPrefix($0.key) }) else { return nil }
                text += value
                rest = rest.dropFirst(entity.count)
            default:
                text.append(character)
                rest = rest.dropFirst()
            }
        }
        return text
    }
}
