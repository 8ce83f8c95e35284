/// Every key the config file accepts. The file is flat (no tables); an unknown key is an
/// error so that a typo does not silently leave a default in place.
public enum ConfigurationKey: String, CaseIterable, Sendable {
    case musicDirectory = "music_directory"
    case socket
    case dataDirectory = "data_dir"
    case output
    case rawRate = "raw_rate"
    case rawChannels = "raw_channels"
    case tapThresholdMilliseconds = "tap_threshold_ms"
    case scanRate = "scan_rate"
    case maxHoldMilliseconds = "max_hold_ms"
    case restartAfterMilliseconds = "restart_after_ms"
    case scanOnStart = "scan_on_start"
    case watch
    case watchRescanSeconds = "watch_rescan_s"
    case watchLimit = "watch_limit"
    case maxConnections = "max_connections"
    case connectionTimeout = "connection_timeout"
    case maxQueueLength = "max_queue_length"
    case logLevel = "log_level"
    case replayGain = "replaygain"
    case replayGainPreamp = "replaygain_preamp"
    case mpdListen = "mpd_listen"
    case mpdPassword = "mpd_password"
    // The web remote.
    case httpListen = "http_listen"
    case httpPassword = "http_password"
    case httpHosts = "http_hosts"
    case httpStream = "http_stream"
    // Sleep timer.
    case sleepFade = "sleep_fade"
    // Resume points.
    case resumeMinDuration = "resume_min_duration"
    // Frontends.
    case mpris
    case notify
    // Stored playlists.
    case playlistDirectory = "playlist_directory"

    /// One line for docs and `--help`: type, default and meaning.
    public var summary: String {
        switch self {
        case .musicDirectory:
            "path; default $XDG_MUSIC_DIR, else XDG_MUSIC_DIR of user-dirs.dirs, else ~/Music. The folder scanned into the library."
        case .socket:
            "path; default $XDG_RUNTIME_DIR/qplay/qplay.sock, else /tmp/qplay-$UID/qplay.sock. QPLAY_SOCKET and --socket win over it."
        case .dataDirectory:
            "path; default $XDG_DATA_HOME/qplay, else ~/.local/share/qplay. Holds library.sqlite and state.sqlite."
        case .output:
            "string or array of strings; default \"alsa\". alsa, alsa:DEVICE, null, file:PATH or pipe:PATH; in an array the first is the clock and each other plays a copy of what it takes, never holding it back."
        case .rawRate:
            "integer Hz, 8000...384000; default 44100. Sample rate written by file: and pipe: outputs."
        case .rawChannels:
            "integer, 1...8; default 2. Channels written by file: and pipe: outputs."
        case .tapThresholdMilliseconds:
            "integer ms, 10...5000; default 300. A next/previous press shorter than this is a tap."
        case .scanRate:
            "number, 1.5...64; default 4. Speed of a held next/previous, as a multiple of real time."
        case .maxHoldMilliseconds:
            "integer ms, 1000...600000; default 30000. A press without release ends after this long."
        case .restartAfterMilliseconds:
            "integer ms, 0...60000; default 3000. Previous restarts the track once this much has played."
        case .scanOnStart:
            "boolean; default true. Start an incremental library scan when the daemon starts."
        case .watch:
            "boolean; default true. Watch the music directory (inotify) and index changed files within seconds. --no-watch turns it off."
        case .watchRescanSeconds:
            "integer s, 1...86400; default 300. How often the folders the inotify watch limit left unwatched (with what is below them) are rescanned; the whole music directory only when inotify cannot be used at all."
        case .watchLimit:
            "integer, 0...10000000; default none. A testing aid: the most folders watched, to try the watch-limit fallback without changing fs.inotify.max_user_watches."
        case .maxConnections:
            "integer, 1...100000; default 512. Clients connected at once; one more is refused with an `unavailable` line. Lowered to fit the open-file limit."
        case .connectionTimeout:
            "integer s, 1...86400; default 60. A client that sends nothing this long is disconnected (MPD's connection_timeout); one that has not given mpd_password after 10 s. An MPD client in idle and a JSON client subscribed to events wait as long as they like."
        case .maxQueueLength:
            "integer, 1...10000000; default 200000. The most entries the queue holds; an add past it is refused whole with `queue_full` (each entry costs about half a kilobyte of memory)."
        case .logLevel:
            "string; default \"info\". trace, debug, info, notice, warning, error or critical."
        case .replayGain:
            "string; default \"off\". off, track, album or auto (album gain while neighbouring entries in the play order are from the same album, else track gain). Applied with the volume; the stored peak prevents clipping."
        case .replayGainPreamp:
            "number dB, -15...15; default 0. Added to every ReplayGain gain (not to files without ReplayGain tags)."
        case .mpdListen:
            "array of strings; default [] (off). Addresses the MPD protocol is served on: HOST:PORT or an absolute Unix socket path. --mpd replaces the list."
        case .mpdPassword:
            "string; default none. The password MPD clients send before any other command; required when mpd_listen has a TCP address other than loopback."
        case .httpListen:
            "array of strings; default [\"127.0.0.1:6680\"]. Addresses the web remote is served on (HOST:PORT); [] turns it off. --http replaces the list."
        case .httpPassword:
            "string; default none. The password the web remote's sign-in page asks for; required when http_listen has an address other than loopback."
        case .httpHosts:
            "array of strings; default []. Host names (besides loopback and the listen addresses) a browser may use to reach the web remote, e.g. a reverse proxy's name."
        case .httpStream:
            "string; default none (off). \"mp3\" (128 kb/s) or \"opus\" (Ogg Opus, 96 kb/s): the music as one live stream at the web remote's /stream, for a phone or another room; everything then plays at raw_rate and raw_channels."
        case .sleepFade:
            "number s, 0...600; default 10. How long the sleep timer's fade to silence lasts before playback pauses (0: it pauses at once)."
        case .resumeMinDuration:
            "number s, 0...604800; default 600. Tracks longer than this remember where they were left and resume there, 2 s before."
        case .mpris:
            "boolean; default true. Serve MPRIS (media keys, playerctl, desktop widgets) on the D-Bus session bus when DBUS_SESSION_BUS_ADDRESS is set. --no-mpris turns it off."
        case .notify:
            "boolean; default false. Show a desktop notification (org.freedesktop.Notifications on the D-Bus session bus) with title, artist, album and cover when a track begins by itself, not by a key the user pressed."
        case .playlistDirectory:
            "path; default playlists in data_dir (which follows --data-dir). The stored playlists, NAME.m3u files of paths relative to the music directory, as MPD keeps them: an MPD playlist_directory can be shared. Watched for other programs' changes when watch is on."
        }
    }
}
