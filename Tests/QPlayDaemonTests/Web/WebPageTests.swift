import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// The Simple Player page in real headless Chromium (Debian's chromium and chromedriver,
/// Selenium) against a real qplayd serving it: scripts/lib/page_driver.py runs one
/// scenario per test, finds the controls by their accessible names, acts as a user
/// would and checks the daemon's own answers on its Unix socket. Each wait is on a
/// condition; the only time bound checked is a change from another client showing on the
/// page within 1 s (the page promises 200 ms).
@Suite(.serialized, .tags(.peer), .group(.peer))
struct WebPageTests {
    static let driver = SampleCatalog.repositoryRoot.appending("scripts/lib/page_driver.py")

    /// Samples and four one-minute tracks ("Page Tones – Long Player", with a cover.png
    /// beside them), long enough to hold a button through the tap threshold and scan
    /// without reaching the end.
    static func library(in directory: TemporaryDirectory) throws -> FilePath {
        let music = directory.appending("music")
        try GeneratedAudio.run("cp", "-R", SampleCatalog.directory.string, music.string)
        // Made once for the whole run (a few seconds of sox and lame) and copied for each test.
        let made = try SharedFixtures.folder("web-page-long-player") { folder in
            try directory.write(GeneratedPictures.png(width: 120, height: 120), to: folder.appending("cover.png"))
            for number in 1...4 {
                let wav = directory.appending("long\(number).wav").string
                try GeneratedAudio.run(
                    "sox", "-R", "-n", "-r", "22050", "-c", "1", "-b", "16", wav, "synth", "60", "sine",
                    "\(300 + 100 * number)", "vol", "0.3")
                try GeneratedAudio.run(
                    "lame", "--quiet", "-b", "32", "--tt", "Long \(number)", "--ta", "Page Tones", "--tl",
                    "Long Player", "--tn", "\(number)", wav, folder.appending("0\(number) Long \(number).mp3").string)
            }
        }
        try FileManager.default.createDirectory(
            atPath: music.appending("Page Tones").string, withIntermediateDirectories: true)
        try GeneratedAudio.run("cp", "-R", made.string, music.appending("Page Tones/Long Player").string)
        return music
    }

    /// Runs `scenario` against a fresh daemon with the page on a free loopback port;
    /// returns what the driver found (its JSON line).
    @discardableResult
    func run(
        _ scenario: String, width: Int = 390, config: String? = nil, password: String = "",
        driver: FilePath = Self.driver
    ) throws -> String {
        let scratch = TemporaryDirectory("web-page")
        defer { scratch.remove() }
        let music = try Self.library(in: scratch)
        let address = "127.0.0.1:\(try FreeTCPPort.probe())"
        return try withDaemon(music: music.string, config: config, arguments: ["--http", address]) { daemon in
            let daemonLine = try JSONSerialization.data(withJSONObject: [
                "pid": Int(daemon.pid),
                "argv": [BuiltProducts.url("qplayd").path] + daemon.standardArguments + ["--http", address],
                "env": daemon.environment.merging(daemon.daemonEnvironment) { _, extra in extra },
                "log": daemon.logPath,
            ])
            let result = try runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"), [driver.string, scenario],
                environment: [
                    "QPLAY_PAGE_URL": "http://\(address)/",
                    "QPLAY_SOCKET": daemon.socketPath,
                    "QPLAY_CLI": BuiltProducts.url("qplay").path,
                    "QPLAY_DAEMON": String(decoding: daemonLine, as: UTF8.self),
                    "QPLAY_WIDTH": "\(width)",
                    "HOME": scratch.path.string,
                    "QPLAY_PASSWORD": password,
                ],
                killAfter: 300)
            #expect(result.status == 0, "\(scenario): \(result.stderr)\n--- qplayd ---\n\(daemon.log.suffix(3000))")
            return result.stdout
        }
    }

    @Test func controlsHaveTheirNamesAndTakeTheKeyboard() throws {
        try run("accessible_names")
    }

    @Test func nowPlayingFollowsTheCommandLine() throws {
        try run("now_playing")
    }

    @Test func searchWhileTypingAndAddAll() throws {
        try run("search")
    }

    @Test func queueMarksRemovesPlaysAndReorders() throws {
        try run("queue")
    }

    @Test func nextTappedSkipsAndHeldScans() throws {
        try run("hold")
    }

    @Test func spaceAndArrowKeys() throws {
        try run("keyboard")
    }

    @Test func volumeRepeatShuffleAndSleep() throws {
        try run("modes")
    }

    @Test func pickerAndPlaylists() throws {
        try run("picker")
    }

    @Test func listenHerePlaysTheStreamInThePage() throws {
        try run("listen", config: "http_stream = \"mp3\"\n")
        try run("no_stream")
    }

    @Test func backByItselfAfterADaemonRestart() throws {
        try run("restart")
    }

    @Test func signInWithThePassword() throws {
        try run("login", config: "http_password = \"sofa and slippers\"\n", password: "sofa and slippers")
    }

    @Test(arguments: [360, 390, 1280])
    func noHorizontalScroll(width: Int) throws {
        try run("layout", width: width)
    }
}

extension WebPageTests {
    @Test func aQueueOf100000EntriesDrawsOnlyWhatIsInView() throws {
        try run("long_queue")
    }
}

/// qplayd closes a WebSocket silent for 60 s; the page pings, so a page left open stays
/// connected. A suite of its own: its 70 s are mostly waiting, and it runs beside
/// WebPageTests, whose tests run one at a time, instead of at their end.
@Suite(.tags(.peer), .group(.peer))
struct WebPageIdleTests {
    @Test func anIdlePageStaysConnected() throws {
        try WebPageTests().run("stays_connected")
    }
}
