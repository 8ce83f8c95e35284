import ArgumentParser
import Logging
import QPlayDaemon

@main
struct QPlayd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qplayd",
        abstract: "The qplay music daemon: library index, play queue and audio device.",
        discussion: """
            Runs in the foreground and logs to stderr; SIGINT or SIGTERM saves the state and \
            exits. Flags override the config file ($XDG_CONFIG_HOME/qplay/config.toml).

            Config file keys (TOML, top level):
            \(ConfigurationKey.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
            """)

    @Option(name: .long, help: "The music directory (default: XDG music dir, else ~/Music).")
    var music: String?

    @Option(name: .long, help: "The socket path (default: $XDG_RUNTIME_DIR/qplay/qplay.sock; QPLAY_SOCKET overrides).")
    var socket: String?

    @Option(name: .customLong("data-dir"), help: "Where the library index and state live (default: $XDG_DATA_HOME/qplay).")
    var dataDir: String?

    @Option(name: .long, help: "alsa, alsa:DEVICE, null, file:PATH or pipe:PATH (default: alsa; repeatable: the first is the clock, the others play a copy; replaces output).")
    var output: [String] = []

    @Option(name: .long, help: "The config file to read instead of the default one.")
    var config: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(name: .long, help: "Serve the MPD protocol on HOST:PORT or a Unix socket path (repeatable; replaces mpd_listen).")
    var mpd: [String] = []

    @Option(name: .long, help: "Serve the web remote on HOST:PORT (repeatable; replaces http_listen).")
    var http: [String] = []

    @Flag(name: .customLong("no-watch"), help: "Do not watch the music directory for changes (overrides watch = true).")
    var noWatch = false

    @Flag(name: .customLong("no-mpris"), help: "Do not serve MPRIS on the D-Bus session bus (overrides mpris = true).")
    var noMPRIS = false

    func run() async throws {
        var overrides = DaemonConfiguration.Overrides()
        overrides.musicDirectory = music
        overrides.socket = socket
        overrides.dataDirectory = dataDir
        overrides.output = output.first
        overrides.followingOutputs = Array(output.dropFirst())
        overrides.configFile = config
        if !mpd.isEmpty { overrides.mpdListen = mpd }
        if !http.isEmpty { overrides.httpListen = http }
        overrides.noWatch = noWatch
        overrides.noMPRIS = noMPRIS
        if let logLevel {
            guard let level = Logger.Level(rawValue: logLevel) else {
                throw ValidationError("unknown log level '\(logLevel)'")
            }
            overrides.logLevel = level
        }
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(overrides: overrides)
        } catch {
            FileHandleOutput.standardError("qplayd: \(error)")
            throw ExitCode(DaemonExitStatus.configuration)
        }
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let status = await Daemon.run(configuration, log: Logger(label: "qplayd"))
        throw ExitCode(status)
    }
}
