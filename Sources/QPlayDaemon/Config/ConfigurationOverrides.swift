import Logging

extension DaemonConfiguration {
    /// Values given on the command line; each one that is set wins over the config file
    /// and the environment. Paths are taken as typed: `~` is expanded and relative paths
    /// are resolved against the current directory.
    public struct Overrides: Sendable, Equatable {
        /// `--music DIR`
        public var musicDirectory: String?
        /// `--socket PATH` (also wins over `QPLAY_SOCKET`)
        public var socket: String?
        /// `--data-dir DIR`
        public var dataDirectory: String?
        /// `--output OUTPUT`: alsa, alsa:DEVICE, null, file:PATH or pipe:PATH
        public var output: String?
        /// `--output` given again: the outputs after the first. With `output`, they
        /// replace the file's whole list.
        public var followingOutputs: [String] = []
        /// `--config FILE`: read this file instead of the default; it must exist.
        public var configFile: String?
        /// e.g. `--log-level debug`
        public var logLevel: Logger.Level?
        /// `--mpd ADDRESS`, repeatable: replaces `mpd_listen` when given.
        public var mpdListen: [String]?
        /// `--http ADDRESS`, repeatable: replaces `http_listen` when given.
        public var httpListen: [String]?
        /// `--no-watch`: do not watch the music directory, whatever `watch` says.
        public var noWatch = false
        /// `--no-mpris`: no MPRIS on the session bus, whatever `mpris` says.
        public var noMPRIS = false

        public init(
            musicDirectory: String? = nil, socket: String? = nil, dataDirectory: String? = nil,
            output: String? = nil, configFile: String? = nil, logLevel: Logger.Level? = nil
        ) {
            self.musicDirectory = musicDirectory
            self.socket = socket
            self.dataDirectory = dataDirectory
            self.output = output
            self.configFile = configFile
            self.logLevel = logLevel
        }
    }
}
