import Logging
import QPlayAudio
import QPlayEngine
import QPlayModel
import QPlayStreamOutput
import SystemPackage

/// Everything `qplayd` needs to know before it starts, resolved from (highest first)
/// command-line flags, the environment (`QPLAY_SOCKET`, XDG variables), the TOML
/// config file and built-in defaults. Every path in it is absolute.
///
/// Build it with `DaemonConfiguration.load(overrides:environment:)`.
public struct DaemonConfiguration: Sendable, Equatable {
    /// The folder the library scanner walks.
    public var musicDirectory: FilePath
    /// The Unix socket clients connect to.
    public var socketPath: FilePath
    /// Holds the library index and the state database.
    public var dataDirectory: FilePath
    /// Where the sound goes: `alsa`, `alsa:DEVICE`, `null`, `file:PATH`, `pipe:PATH`.
    /// This first output is the clock.
    public var output: OutputSpec
    /// Outputs played beside the first, each fed a copy of what it takes and never
    /// holding it back.
    public var followingOutputs: [OutputSpec] = []
    /// The fixed format written by `file:` and `pipe:` outputs.
    public var rawOutputFormat: AudioFormat
    /// A next/previous press shorter than this is a tap, longer a hold (scan).
    public var tapThreshold: Duration
    /// How fast a hold scans, as a multiple of real time.
    public var scanRate: Double
    /// A press with no release ends itself after this long.
    public var maxHold: Duration
    /// Seconds played after which a previous-tap restarts the track instead of going back.
    public var restartAfter: Double
    /// Whether the daemon starts an incremental library scan at start-up.
    public var scanOnStart: Bool
    /// Whether the music directory is watched for changes (inotify).
    public var watch: Bool = Defaults.watch
    /// How often the folders without a watch are rescanned (all of them when inotify is unavailable).
    public var watchRescan: Duration = Defaults.watchRescan
    /// The most folders watched (a testing aid); nil: as many as the kernel allows.
    public var watchLimit: Int?
    /// Clients served at once; the server may lower it to fit the open-file limit
    /// (`DescriptorLimit`).
    public var maxConnections: Int
    /// How long a client may send nothing (`connection_timeout`, `SilenceTimeouts`).
    public var connectionTimeout: Duration = Defaults.connectionTimeout
    /// The most entries the queue holds (`EngineConfiguration.maxQueueLength`).
    public var maxQueueLength: Int = Defaults.maxQueueLength
    /// Seconds the sleep timer fades out over (`sleep_fade`).
    public var sleepFade: Double = Defaults.sleepFade
    /// Tracks longer than this many seconds resume where they were left
    /// (`resume_min_duration`, `EngineConfiguration.resumeMinDuration`).
    public var resumeMinDuration: Double = Defaults.resumeMinDuration
    /// Seconds added to the wall clock the alarm clock reads (`QPLAYD_CLOCK_OFFSET`):
    /// lets a test start qplayd "minutes after" an alarm's time without waiting.
    public var wallClockOffset: Double = 0
    /// The least severe log messages written to stderr.
    public var logLevel: Logger.Level
    /// Which ReplayGain value scales each track, and the preamp.
    public var replayGain: ReplayGainSettings
    /// Where the MPD protocol is served; empty: not at all.
    public var mpdListen: [MPDAddress]
    /// The password every MPD connection must send first, when set.
    public var mpdPassword: String?
    /// Where the web remote is served; empty: not at all.
    public var httpListen: [MPDAddress] = Defaults.httpListen
    /// True while `httpListen` is the built-in default (no `http_listen`, no `--http`):
    /// then an address in use (another qplayd's page) is logged and the daemon runs on.
    public var httpListenIsDefault = true
    /// The web remote's sign-in password, when set.
    public var httpPassword: String?
    /// Host names a browser may use besides loopback and the listen addresses (lowercased).
    public var httpHosts: [String] = []
    /// The web remote's `/stream`: the music encoded live (nil: none).
    public var httpStream: StreamEncoding?
    /// Whether MPRIS is served on the D-Bus session bus (when there is one).
    public var mpris: Bool = Defaults.mpris
    /// Whether track changes are shown as desktop notifications.
    public var notify: Bool = Defaults.notify
    /// The stored playlists' folder (`playlist_directory`); nil: `playlists` in the data directory.
    public var playlistDirectorySetting: FilePath?
    /// The config file that was read, or nil when there was none.
    public var configFile: FilePath?
    /// True when the socket is at its default XDG place, whose folder belongs to qplay
    /// alone and is kept 0700 (see `DaemonDirectories`).
    public var socketDirectoryIsDedicated: Bool

    public init(
        musicDirectory: FilePath, socketPath: FilePath, dataDirectory: FilePath,
        output: OutputSpec = Defaults.output, rawOutputFormat: AudioFormat = Defaults.rawOutputFormat,
        tapThreshold: Duration = Defaults.tapThreshold, scanRate: Double = Defaults.scanRate,
        maxHold: Duration = Defaults.maxHold, restartAfter: Double = Defaults.restartAfter,
        scanOnStart: Bool = Defaults.scanOnStart, maxConnections: Int = Defaults.maxConnections,
        logLevel: Logger.Level = Defaults.logLevel, replayGain: ReplayGainSettings = Defaults.replayGain,
        mpdListen: [MPDAddress] = [], mpdPassword: String? = nil,
        configFile: FilePath? = nil, socketDirectoryIsDedicated: Bool = false
    ) {
        self.musicDirectory = musicDirectory
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.output = output
        self.rawOutputFormat = rawOutputFormat
        self.tapThreshold = tapThreshold
        self.scanRate = scanRate
        self.maxHold = maxHold
        self.restartAfter = restartAfter
        self.scanOnStart = scanOnStart
        self.maxConnections = maxConnections
        self.logLevel = logLevel
        self.replayGain = replayGain
        self.mpdListen = mpdListen
        self.mpdPassword = mpdPassword
        self.configFile = configFile
        self.socketDirectoryIsDedicated = socketDirectoryIsDedicated
    }

    /// Built-in values used when neither a flag nor the config file sets one.
    public enum Defaults {
        public static let output = OutputSpec.alsa(device: "default")
        public static let httpListen: [MPDAddress] = [.tcp(host: "127.0.0.1", port: 6680)]
        public static let rawOutputFormat = AudioFormat.cd
        public static let tapThreshold = Duration.milliseconds(300)
        public static let scanRate = 4.0
        public static let maxHold = Duration.seconds(30)
        public static let restartAfter = 3.0
        public static let scanOnStart = true
        public static let watch = true
        public static let mpris = true
        public static let notify = false
        public static let watchRescan = Duration.seconds(300)
        public static let maxConnections = 512
        /// As MPD's `connection_timeout`.
        public static let connectionTimeout = Duration.seconds(60)
        public static let maxQueueLength = EngineConfiguration.defaultMaxQueueLength
        public static let sleepFade = 10.0
        public static let resumeMinDuration = 600.0
        public static let logLevel = Logger.Level.info
        public static let replayGain = ReplayGainSettings(mode: .off, preamp: 0)
    }

    // MARK: Paths derived from the configuration

    /// The socket's folder; created 0700.
    public var socketDirectory: FilePath { socketPath.removingLastComponent() }

    /// The single-instance lock file beside the socket (`qplay.sock.lock`).
    public var lockFilePath: FilePath {
        socketDirectory.appending((socketPath.lastComponent?.string ?? "qplay.sock") + ".lock")
    }

    /// The library index database (owned by QPlayLibrary).
    public var libraryDatabasePath: FilePath { dataDirectory.appending("library.sqlite") }

    /// The player state database (queue, current entry, position, options).
    public var stateDatabasePath: FilePath { dataDirectory.appending("state.sqlite") }

    /// The stored playlists' folder.
    public var playlistDirectory: FilePath { playlistDirectorySetting ?? dataDirectory.appending("playlists") }
}
