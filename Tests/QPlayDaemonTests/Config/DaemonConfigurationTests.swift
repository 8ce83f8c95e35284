import Logging
import QPlayAudio
import QPlayEngine
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

/// A fake home and a clean environment, so the tests never read the real user's files.
private struct Sandbox {
    let directory = TemporaryDirectory("qplay-config")
    var home: FilePath { directory.appending("home") }
    var cwd: FilePath { directory.appending("cwd") }

    init() {
        _ = try? DaemonDirectories.createDirectory(directory.appending("home"))
        _ = try? DaemonDirectories.createDirectory(directory.appending("cwd"))
    }

    func environment(_ variables: [String: String] = [:], homeKnown: Bool = true) -> ConfigurationEnvironment {
        ConfigurationEnvironment(
            variables: variables, userID: 4321, currentDirectory: cwd, homeDirectory: homeKnown ? home : nil)
    }

    /// Writes `text` as a file (creating folders) and returns its path.
    @discardableResult
    func write(_ text: String, to path: FilePath) throws -> FilePath {
        try DaemonDirectories.createDirectory(path.removingLastComponent())
        try directory.write(Array(text.utf8), to: path)
        return path
    }

    var defaultConfigFile: FilePath { home.appending(".config/qplay/config.toml") }
}

@Suite struct DaemonConfigurationTests {
    @Test func xdgVariablesGiveTheDefaultPaths() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let configuration = try DaemonConfiguration.load(
            environment: sandbox.environment([
                "XDG_RUNTIME_DIR": "/run/user/4321", "XDG_DATA_HOME": "/data/home",
                "XDG_CONFIG_HOME": sandbox.directory.appending("nothing-here").string,
                "XDG_MUSIC_DIR": "/media/music",
            ]))
        #expect(configuration.socketPath == "/run/user/4321/qplay/qplay.sock")
        #expect(configuration.socketDirectory == "/run/user/4321/qplay")
        #expect(configuration.lockFilePath == "/run/user/4321/qplay/qplay.sock.lock")
        #expect(configuration.socketDirectoryIsDedicated)
        #expect(configuration.dataDirectory == "/data/home/qplay")
        #expect(configuration.libraryDatabasePath == "/data/home/qplay/library.sqlite")
        #expect(configuration.stateDatabasePath == "/data/home/qplay/state.sqlite")
        #expect(configuration.musicDirectory == "/media/music")
        #expect(configuration.configFile == nil)
        #expect(configuration.output == .alsa(device: "default"))
        #expect(configuration.rawOutputFormat == AudioFormat(sampleRate: 44100, channels: 2))
        #expect(configuration.tapThreshold == .milliseconds(300))
        #expect(configuration.scanRate == 4)
        #expect(configuration.maxHold == .seconds(30))
        #expect(configuration.restartAfter == 3)
        #expect(configuration.scanOnStart)
        #expect(configuration.logLevel == .info)
    }

    @Test func withoutXDGVariablesTheFallbacksAreUsed() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        // Relative XDG values are invalid by the XDG spec and must be ignored.
        let configuration = try DaemonConfiguration.load(
            environment: sandbox.environment(["XDG_RUNTIME_DIR": "relative/run", "XDG_DATA_HOME": ""]))
        #expect(configuration.socketPath == "/tmp/qplay-4321/qplay.sock")
        #expect(configuration.socketDirectoryIsDedicated)
        #expect(configuration.dataDirectory == sandbox.home.appending(".local/share/qplay"))
        #expect(configuration.musicDirectory == sandbox.home.appending("Music"))
        #expect(
            DaemonConfiguration.defaultConfigFilePath(environment: sandbox.environment())
                == sandbox.defaultConfigFile)
    }

    @Test func musicDirectoryComesFromUserDirsWhenTheVariableIsUnset() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        try sandbox.write(
            """
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_MUSIC_DIR="$HOME/Musik/Sammlung"
            """, to: sandbox.home.appending(".config/user-dirs.dirs"))
        let configuration = try DaemonConfiguration.load(environment: sandbox.environment())
        #expect(configuration.musicDirectory == sandbox.home.appending("Musik/Sammlung"))

        // "$HOME" alone means the folder is disabled: fall back to ~/Music.
        try sandbox.write(#"XDG_MUSIC_DIR="$HOME/""#, to: sandbox.home.appending(".config/user-dirs.dirs"))
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).musicDirectory
            == sandbox.home.appending("Music"))
    }

    @Test func everyKeyOfTheConfigFileIsRead() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let file = try sandbox.write(
            """
            # qplayd configuration
            music_directory = "~/Tunes"
            socket = "run/qplay.sock"          # relative: to this file's folder
            data_dir = "/var/tmp/qplay-data"
            output = "file:capture.raw"
            raw_rate = 48000
            raw_channels = 1
            tap_threshold_ms = 250
            scan_rate = 8.5
            max_hold_ms = 20000
            restart_after_ms = 5000
            scan_on_start = false
            max_connections = 64
            max_queue_length = 5000
            log_level = "debug"
            replaygain = "auto"
            replaygain_preamp = -3.5
            """, to: sandbox.defaultConfigFile)
        let folder = file.removingLastComponent()
        let configuration = try DaemonConfiguration.load(environment: sandbox.environment())
        #expect(configuration.configFile == file)
        #expect(configuration.musicDirectory == sandbox.home.appending("Tunes"))
        #expect(configuration.socketPath == folder.appending("run/qplay.sock"))
        #expect(!configuration.socketDirectoryIsDedicated)
        #expect(configuration.dataDirectory == "/var/tmp/qplay-data")
        #expect(configuration.output == .file(folder.appending("capture.raw")))
        #expect(configuration.rawOutputFormat == AudioFormat(sampleRate: 48000, channels: 1))
        #expect(configuration.tapThreshold == .milliseconds(250))
        #expect(configuration.scanRate == 8.5)
        #expect(configuration.maxHold == .seconds(20))
        #expect(configuration.restartAfter == 5)
        #expect(!configuration.scanOnStart)
        #expect(configuration.maxConnections == 64)
        #expect(configuration.maxQueueLength == 5000)
        #expect(configuration.logLevel == .debug)
        #expect(configuration.replayGain == ReplayGainSettings(mode: .auto, preamp: -3.5))
    }

    @Test func watchingIsOnUnlessTurnedOffByTheFileOrTheFlag() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let defaults = try DaemonConfiguration.load(environment: sandbox.environment())
        #expect(defaults.watch && defaults.watchRescan == .seconds(300) && defaults.watchLimit == nil)
        var noWatch = DaemonConfiguration.Overrides()
        noWatch.noWatch = true
        #expect(try !DaemonConfiguration.load(overrides: noWatch, environment: sandbox.environment()).watch)
        try sandbox.write("watch = false\nwatch_rescan_s = 7\nwatch_limit = 3", to: sandbox.defaultConfigFile)
        let configured = try DaemonConfiguration.load(environment: sandbox.environment())
        #expect(!configured.watch && configured.watchRescan == .seconds(7) && configured.watchLimit == 3)
        try sandbox.write("watch_rescan_s = 0", to: sandbox.defaultConfigFile)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.load(environment: sandbox.environment()) }
    }

    @Test func mprisIsOnUnlessTurnedOffByTheFileOrTheFlag() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).mpris)
        var noMPRIS = DaemonConfiguration.Overrides()
        noMPRIS.noMPRIS = true
        #expect(try !DaemonConfiguration.load(overrides: noMPRIS, environment: sandbox.environment()).mpris)
        try sandbox.write("mpris = false", to: sandbox.defaultConfigFile)
        #expect(try !DaemonConfiguration.load(environment: sandbox.environment()).mpris)
        // The flag wins over a file that turns it on, too.
        try sandbox.write("mpris = true", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).mpris)
        #expect(try !DaemonConfiguration.load(overrides: noMPRIS, environment: sandbox.environment()).mpris)
        try sandbox.write("mpris = \"no\"", to: sandbox.defaultConfigFile)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.load(environment: sandbox.environment()) }
    }

    @Test func notifyIsOffUnlessTheFileTurnsItOn() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        #expect(try !DaemonConfiguration.load(environment: sandbox.environment()).notify)
        try sandbox.write("notify = true", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).notify)
        try sandbox.write("notify = 1", to: sandbox.defaultConfigFile)
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.load(environment: sandbox.environment()) }
    }

    @Test func replayGainIsOffUnlessConfigured() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).replayGain == ReplayGainSettings())
        try sandbox.write("replaygain = \"Album\"\nreplaygain_preamp = 6", to: sandbox.defaultConfigFile)
        let configuration = try DaemonConfiguration.load(environment: sandbox.environment())
        #expect(configuration.replayGain == ReplayGainSettings(mode: .album, preamp: 6))
        try sandbox.write("replaygain_preamp = -15", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).replayGain.preamp == -15)
    }

    @Test func theSleepFadeTakesIntegersAndDecimals() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).sleepFade == 10)
        try sandbox.write("sleep_fade = 4", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).sleepFade == 4)
        try sandbox.write("sleep_fade = 2.5", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).sleepFade == 2.5)
        try sandbox.write("sleep_fade = 0", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).sleepFade == 0)
    }

    @Test func theResumeThresholdTakesIntegersAndDecimals() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).resumeMinDuration == 600)
        try sandbox.write("resume_min_duration = 1800", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).resumeMinDuration == 1800)
        try sandbox.write("resume_min_duration = 90.5", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).resumeMinDuration == 90.5)
    }

    @Test func thePlaylistFolderFollowsTheDataDirectoryUnlessSet() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let moved = DaemonConfiguration.Overrides(dataDirectory: "/d")
        #expect(try DaemonConfiguration.load(overrides: moved, environment: sandbox.environment()).playlistDirectory == "/d/playlists")
        try sandbox.write("playlist_directory = \"~/mpd/playlists\"", to: sandbox.defaultConfigFile)
        let set = try DaemonConfiguration.load(overrides: moved, environment: sandbox.environment())
        #expect(set.playlistDirectory == sandbox.home.appending("mpd/playlists"))
    }

    @Test func anIntegerIsAcceptedWhereANumberIsExpected() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        try sandbox.write("scan_rate = 6", to: sandbox.defaultConfigFile)
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).scanRate == 6)
    }

    @Test func flagsWinOverTheEnvironmentAndTheFile() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let other = try sandbox.write(
            """
            music_directory = "/from/file/music"
            socket = "/from/file/qplay.sock"
            data_dir = "/from/file/data"
            output = "null"
            log_level = "error"
            """, to: sandbox.directory.appending("elsewhere/qplayd.toml"))
        // The default file must not be read when --config names another one.
        try sandbox.write("this is not toml", to: sandbox.defaultConfigFile)
        let environment = sandbox.environment(["QPLAY_SOCKET": "/from/env/qplay.sock"])

        let fileOnly = try DaemonConfiguration.load(
            overrides: .init(configFile: other.string), environment: sandbox.environment())
        #expect(fileOnly.socketPath == "/from/file/qplay.sock")
        #expect(fileOnly.output == .null)

        let withEnvironment = try DaemonConfiguration.load(
            overrides: .init(configFile: other.string), environment: environment)
        #expect(withEnvironment.socketPath == "/from/env/qplay.sock")
        #expect(withEnvironment.musicDirectory == "/from/file/music")
        #expect(withEnvironment.logLevel == .error)

        let withFlags = try DaemonConfiguration.load(
            overrides: .init(
                musicDirectory: "music", socket: "~/s.sock", dataDirectory: "../data",
                output: "pipe:fifo", configFile: other.string, logLevel: .trace),
            environment: environment)
        #expect(withFlags.musicDirectory == sandbox.cwd.appending("music"))
        #expect(withFlags.socketPath == sandbox.home.appending("s.sock"))
        #expect(!withFlags.socketDirectoryIsDedicated)
        #expect(withFlags.dataDirectory == sandbox.directory.appending("data"))
        #expect(withFlags.output == .pipe(sandbox.cwd.appending("fifo")))
        #expect(withFlags.followingOutputs == [])
        #expect(withFlags.logLevel == .trace)
        #expect(withFlags.configFile == other)
    }

    /// `output` as a list: the first is the clock, the rest follow it; `--output` given
    /// more than once replaces the file's whole list, paths resolved as for one output.
    @Test func severalOutputsFromTheFileOrTheFlags() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let file = try sandbox.write(
            """
            music_directory = "/music"
            output = ["alsa:hw:1", "pipe:snapfifo", "file:copy.raw"]
            """, to: sandbox.defaultConfigFile)
        var folder = file
        folder.removeLastComponent()
        let fromFile = try DaemonConfiguration.load(environment: sandbox.environment())
        #expect(fromFile.output == .alsa(device: "hw:1"))
        #expect(fromFile.followingOutputs == [.pipe(folder.appending("snapfifo")), .file(folder.appending("copy.raw"))])

        var overrides = DaemonConfiguration.Overrides(output: "null")
        overrides.followingOutputs = ["pipe:fifo"]
        let fromFlags = try DaemonConfiguration.load(overrides: overrides, environment: sandbox.environment())
        #expect(fromFlags.output == .null)
        #expect(fromFlags.followingOutputs == [.pipe(sandbox.cwd.appending("fifo"))])

        overrides.followingOutputs = ["null"]
        let twice = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(overrides: overrides, environment: sandbox.environment())
        }
        #expect(twice.origin == "--output")
        #expect(twice.reason == "null is listed twice")
    }

    @Test func aTOMLSyntaxErrorNamesTheFileAndLine() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let file = try sandbox.write(
            """
            music_directory = "/music"

            scan_rate = = 4
            """, to: sandbox.defaultConfigFile)
        let error = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(environment: sandbox.environment())
        }
        #expect(error.origin == file.string)
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("\(file.string):3:"))
    }

    @Test(arguments: [
        ("tap_threshold_ms = \"300\"", "tap_threshold_ms", "expected an integer"),
        ("scan_rate = \"fast\"", "scan_rate", "expected a number, found string \"fast\""),
        ("scan_on_start = 1", "scan_on_start", "expected true or false"),
        ("music_directory = 3", "music_directory", "expected a string"),
        ("raw_channels = 0", "raw_channels", "out of range 1...8"),
        ("max_connections = 0", "max_connections", "out of range 1...100000"),
        ("max_queue_length = 0", "max_queue_length", "out of range 1...10000000"),
        ("scan_rate = 1000.0", "scan_rate", "out of range"),
        ("output = \"speakers\"", "output", "unknown output"),
        ("output = [\"null\", \"speakers\"]", "output", "unknown output"),
        ("output = []", "output", "no output given"),
        ("output = [\"null\", 3]", "output", "expected outputs as strings, found integer 3"),
        ("output = 3", "output", "expected a string or an array of strings"),
        ("http_stream = \"aac\"", "http_stream", "unknown stream format 'aac' (use mp3 or opus)"),
        ("http_stream = \"mp3\"\nhttp_listen = []", "http_stream", "the web remote, which is off"),
        ("output = [\"file:/tmp/a.raw\", \"null\", \"file:/tmp/a.raw\"]", "output", "file:/tmp/a.raw is listed twice"),
        ("log_level = \"loud\"", "log_level", "unknown log level 'loud'"),
        ("replaygain = \"loud\"", "replaygain", "unknown ReplayGain mode 'loud' (use one of off, track, album, auto)"),
        ("replaygain = true", "replaygain", "expected a string"),
        ("replaygain_preamp = 15.5", "replaygain_preamp", "15.5 is out of range -15.0...15.0"),
        ("replaygain_preamp = -20", "replaygain_preamp", "-20.0 is out of range -15.0...15.0"),
        ("replaygain_preamp = \"+3 dB\"", "replaygain_preamp", "expected a number, found string \"+3 dB\""),
        ("sleep_fade = -1", "sleep_fade", "-1.0 is out of range 0.0...600.0"),
        ("sleep_fade = \"10s\"", "sleep_fade", "expected a number"),
        ("resume_min_duration = -5", "resume_min_duration", "-5.0 is out of range 0.0...604800.0"),
        ("resume_min_duration = \"10m\"", "resume_min_duration", "expected a number"),
        ("music_directory = \"~bob/music\"", "music_directory", "not '~user'"),
        ("socket = \"\"", "socket", "the path is empty"),
        ("tap_threshold_ms = 2000\nmax_hold_ms = 1500", "max_hold_ms", "longer than tap_threshold_ms"),
        ("musik_directory = \"/m\"", "musik_directory", "unknown key (known keys: music_directory,"),
        ("[audio]\nraw_rate = 48000", "audio", "unknown key"),
    ])
    func aBadValueNamesItsKey(line: String, key: String, reason: String) throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let file = try sandbox.write(line, to: sandbox.defaultConfigFile)
        let error = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(environment: sandbox.environment())
        }
        #expect(error.origin == file.string)
        #expect(error.key == key)
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.hasPrefix("\(file.string): key '\(key)': "))
    }

    @Test func aMissingDefaultFileIsFineButAMissingNamedFileIsNot() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        #expect(try DaemonConfiguration.load(environment: sandbox.environment()).configFile == nil)
        let error = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(overrides: .init(configFile: "missing.toml"), environment: sandbox.environment())
        }
        #expect(error.origin == sandbox.cwd.appending("missing.toml").string)
        #expect(error.reason.contains("cannot read the config file"))
    }

    @Test func anUnreadableOrNonUTF8FileIsAClearError() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        // A folder where the file should be: reading fails (even for root, unlike chmod 000).
        try DaemonDirectories.createDirectory(sandbox.defaultConfigFile)
        let unreadable = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(environment: sandbox.environment())
        }
        #expect(unreadable.origin == sandbox.defaultConfigFile.string)
        #expect(unreadable.reason.contains("cannot read the config file"))

        let latin1 = sandbox.directory.appending("latin1.toml")
        try sandbox.directory.write(Array("music_directory = \"/M".utf8) + [0xFC] + Array("sik\"".utf8), to: latin1)
        let notUTF8 = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(overrides: .init(configFile: latin1.string), environment: sandbox.environment())
        }
        #expect(notUTF8.reason == "the config file is not valid UTF-8")
    }

    @Test func badFlagsNameTheFlag() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let output = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(overrides: .init(output: "file:"), environment: sandbox.environment())
        }
        #expect(output.origin == "--output")
        let music = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(overrides: .init(musicDirectory: ""), environment: sandbox.environment())
        }
        #expect(music.description == "--music: the path is empty")
    }

    @Test func aSocketPathTooLongForAUnixSocketIsRefused() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let long = "/" + String(repeating: "d", count: 100) + "/qplay.sock"
        let error = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(overrides: .init(socket: long), environment: sandbox.environment())
        }
        #expect(error.reason.contains("at most 107"))
    }

    @Test func withoutAHomeTheDefaultsCannotBeFound() throws {
        let sandbox = Sandbox()
        defer { sandbox.directory.remove() }
        let error = try #require(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(environment: sandbox.environment(homeKnown: false))
        }
        #expect(error.description.contains("HOME is not set"))
        // Everything given explicitly: no home needed.
        let configuration = try DaemonConfiguration.load(
            overrides: .init(musicDirectory: "/m", dataDirectory: "/d"),
            environment: sandbox.environment(["XDG_RUNTIME_DIR": "/run/user/4321"], homeKnown: false))
        #expect(configuration.socketPath == "/run/user/4321/qplay/qplay.sock")
    }
}
