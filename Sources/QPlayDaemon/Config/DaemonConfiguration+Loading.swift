import QPlayAudio
import QPlayEngine
import SystemPackage

extension DaemonConfiguration {
    /// Resolves the configuration. Precedence, highest first:
    /// command-line flag (`overrides`) → environment (`QPLAY_SOCKET` for the socket) →
    /// config file (`--config FILE`, else `$XDG_CONFIG_HOME/qplay/config.toml` when it
    /// exists) → XDG defaults. Relative flag paths are relative to the current directory,
    /// relative paths in the file to the file's folder; `~` is expanded in both.
    public static func load(
        overrides: Overrides = Overrides(), environment: ConfigurationEnvironment = .current()
    ) throws(ConfigurationError) -> DaemonConfiguration {
        let home = environment.homeDirectory
        let cwd = environment.currentDirectory
        func flagPath(_ text: String, _ flag: String) throws(ConfigurationError) -> FilePath {
            do {
                return try PathResolution.resolve(text, relativeTo: cwd, home: home)
            } catch {
                throw ConfigurationError(origin: flag, reason: error.reason)
            }
        }

        let file: ConfigurationFile?
        if let explicit = overrides.configFile {
            file = try ConfigurationFile.read(flagPath(explicit, "--config"), home: home, mustExist: true)
        } else if let path = defaultConfigFilePath(environment: environment) {
            file = try ConfigurationFile.read(path, home: home, mustExist: false)
        } else {
            file = nil
        }

        let musicDirectory: FilePath
        if let flag = overrides.musicDirectory {
            musicDirectory = try flagPath(flag, "--music")
        } else if let fromFile = file?.musicDirectory {
            musicDirectory = fromFile
        } else if let fallback = environment.musicDirectory {
            musicDirectory = fallback
        } else {
            throw missingHome("the music directory (set music_directory or pass --music)")
        }

        let socketPath: FilePath
        var socketDirectoryIsDedicated = false
        if let flag = overrides.socket {
            socketPath = try flagPath(flag, "--socket")
        } else if let variable = environment.variables["QPLAY_SOCKET"], !variable.isEmpty {
            socketPath = try flagPath(variable, "QPLAY_SOCKET")
        } else if let fromFile = file?.socket {
            socketPath = fromFile
        } else {
            socketPath = defaultSocketPath(environment: environment)
            socketDirectoryIsDedicated = true
        }
        try checkSocketPath(socketPath)

        let dataDirectory: FilePath
        if let flag = overrides.dataDirectory {
            dataDirectory = try flagPath(flag, "--data-dir")
        } else if let fromFile = file?.dataDirectory {
            dataDirectory = fromFile
        } else if let dataHome = environment.dataHome {
            dataDirectory = dataHome.appending("qplay")
        } else {
            throw missingHome("the data directory (set data_dir or pass --data-dir)")
        }

        var outputs = file?.outputs ?? [Defaults.output]
        if let flag = overrides.output {
            do {
                outputs = try OutputParsing.parseList([flag] + overrides.followingOutputs, relativeTo: cwd, home: home)
            } catch {
                throw ConfigurationError(origin: "--output", reason: error.reason)
            }
        }

        var configuration = DaemonConfiguration(
            musicDirectory: musicDirectory, socketPath: socketPath, dataDirectory: dataDirectory,
            output: outputs[0], configFile: file?.path, socketDirectoryIsDedicated: socketDirectoryIsDedicated)
        configuration.followingOutputs = Array(outputs.dropFirst())
        if let file {
            configuration.rawOutputFormat = AudioFormat(
                sampleRate: file.rawRate ?? Defaults.rawOutputFormat.sampleRate,
                channels: file.rawChannels ?? Defaults.rawOutputFormat.channels)
            configuration.tapThreshold = file.tapThreshold ?? Defaults.tapThreshold
            configuration.scanRate = file.scanRate ?? Defaults.scanRate
            configuration.maxHold = file.maxHold ?? Defaults.maxHold
            configuration.restartAfter = file.restartAfter ?? Defaults.restartAfter
            configuration.scanOnStart = file.scanOnStart ?? Defaults.scanOnStart
            configuration.watch = file.watch ?? Defaults.watch
            configuration.watchRescan = file.watchRescan ?? Defaults.watchRescan
            configuration.watchLimit = file.watchLimit
            configuration.mpris = file.mpris ?? Defaults.mpris
            configuration.notify = file.notify ?? Defaults.notify
            configuration.maxConnections = file.maxConnections ?? Defaults.maxConnections
            configuration.connectionTimeout = file.connectionTimeout ?? Defaults.connectionTimeout
            configuration.maxQueueLength = file.maxQueueLength ?? Defaults.maxQueueLength
            configuration.logLevel = file.logLevel ?? Defaults.logLevel
            configuration.sleepFade = file.sleepFade ?? Defaults.sleepFade
            configuration.resumeMinDuration = file.resumeMinDuration ?? Defaults.resumeMinDuration
            configuration.playlistDirectorySetting = file.playlistDirectory
            configuration.replayGain = ReplayGainSettings(
                mode: file.replayGainMode ?? Defaults.replayGain.mode,
                preamp: file.replayGainPreamp ?? Defaults.replayGain.preamp)
            if configuration.maxHold <= configuration.tapThreshold {
                throw ConfigurationError(
                    origin: file.path.string, key: ConfigurationKey.maxHoldMilliseconds.rawValue,
                    reason: "must be longer than tap_threshold_ms")
            }
        }
        if let level = overrides.logLevel { configuration.logLevel = level }
        if overrides.noWatch { configuration.watch = false }
        if let offset = environment.variables["QPLAYD_CLOCK_OFFSET"] {
            guard let seconds = Double(offset), seconds.isFinite else {
                throw ConfigurationError(origin: "QPLAYD_CLOCK_OFFSET", reason: "must be a number of seconds, got \"\(offset)\"")
            }
            configuration.wallClockOffset = seconds
        }
        if overrides.noMPRIS { configuration.mpris = false }
        configuration.mpdListen = file?.mpdListen ?? []
        configuration.mpdPassword = file?.mpdPassword
        if let flags = overrides.mpdListen {
            configuration.mpdListen = []
            for text in flags {
                do {
                    configuration.mpdListen.append(try MPDAddress.parse(text))
                } catch {
                    throw ConfigurationError(origin: "--mpd", reason: error.reason)
                }
            }
        }
        try checkMPDExposure(configuration)
        try loadWeb(into: &configuration, file: file, flags: overrides.httpListen)
        return configuration
    }

    /// MPD's protocol has no encryption; a port reachable from other machines without a
    /// password would let anyone on the network drive the player and read the library.
    static func checkMPDExposure(_ configuration: DaemonConfiguration) throws(ConfigurationError) {
        guard configuration.mpdPassword == nil,
            let exposed = configuration.mpdListen.first(where: { !$0.isLocal })
        else { return }
        throw ConfigurationError(
            origin: configuration.configFile?.string ?? "--mpd", key: ConfigurationKey.mpdPassword.rawValue,
            reason: "the MPD address \(exposed) is reachable from other machines; set mpd_password in the config file, or listen on 127.0.0.1, localhost, ::1 or a socket path only")
    }

    /// `$XDG_RUNTIME_DIR/qplay/qplay.sock`, else `/tmp/qplay-$UID/qplay.sock`. (Without
    /// `QPLAY_SOCKET` or the config file: the client applies `QPLAY_SOCKET` itself.)
    public static func defaultSocketPath(environment: ConfigurationEnvironment) -> FilePath {
        if let runtime = environment.xdgDirectory("XDG_RUNTIME_DIR") {
            return runtime.appending("qplay/qplay.sock")
        }
        return FilePath("/tmp/qplay-\(environment.userID)/qplay.sock")
    }

    /// `$XDG_CONFIG_HOME/qplay/config.toml` (fallback `~/.config/qplay/config.toml`).
    public static func defaultConfigFilePath(environment: ConfigurationEnvironment) -> FilePath? {
        environment.configHome?.appending("qplay/config.toml")
    }

    /// A Unix socket address holds at most 107 path bytes plus the NUL (sun_path is 108):
    /// say so now rather than fail later with a bare EINVAL from bind().
    static func checkSocketPath(_ path: FilePath) throws(ConfigurationError) {
        let length = path.string.utf8.count
        if length > 107 {
            throw ConfigurationError(
                origin: path.string,
                reason: "the socket path is \(length) bytes long; a Unix socket path holds at most 107")
        }
    }

    private static func missingHome(_ what: String) -> ConfigurationError {
        ConfigurationError(origin: "environment", reason: "HOME is not set, so there is no default for \(what)")
    }
}
