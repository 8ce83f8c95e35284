import ArgumentParser
import QPlayProtocol

/// A subcommand that sends one command and prints nothing on success (key bindings run
/// these), or the result with `--json`.
protocol QuietCommand: ParsableCommand {
    var options: ConnectionOptions { get }
    var command: Command { get throws }
}

extension QuietCommand {
    func run() throws {
        try performing { _ = try options.run(try command) }
    }
}

/// The quiet commands by name, for the quick path (QuickInvocation).
let quietCommands: [String: Command] = [
    "play": .play, "pause": .pause, "toggle": .toggle, "stop": .stop, "next": .next, "prev": .previous,
    "clear": .clear,
]

struct Play: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Start or resume playback.")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .play }
}

struct Pause: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause playback.")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .pause }
}

struct Toggle: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Pause when playing, else play.")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .toggle }
}

struct Stop: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop playback.")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .stop }
}

struct Next: QuietCommand {
    static let configuration = CommandConfiguration(commandName: "next", abstract: "Skip to the next entry.")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .next }
}

struct Prev: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "prev",
        abstract: "Restart the track when more than 3 s have played, else go to the previous entry.")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .previous }
}

struct Clear: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Empty the queue (takes effect at the next track change).")
    @OptionGroup var options: ConnectionOptions
    var command: Command { .clear }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ping", abstract: "Check that the daemon answers.")
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            let client = try options.connect()
            if options.json {
                _ = try options.run(.ping)
            } else {
                _ = try client.send(.ping).result(as: EmptyResult.self)
                Output.line("qplayd \(client.greeting.version) on \(client.path)")
            }
        }
    }
}

/// `next` or `prev` as typed on the command line.
enum ButtonName: String, ExpressibleByArgument, CaseIterable {
    case next, prev
    var button: Button { self == .next ? .next : .previous }
}

struct Press: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "press",
        abstract: "Press a button (bind to key-down); hold it to scan, see `release`.")
    @Argument(help: "next or prev") var button: ButtonName
    @OptionGroup var options: ConnectionOptions
    var command: Command { .press(button.button) }
}

struct Release: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Release a pressed button (bind to key-up): a tap skips, a hold has scanned.")
    @Argument(help: "next or prev") var button: ButtonName
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try Self.release(button, connection: options.connection)
    }

    static func release(_ button: ButtonName, connection: Connection) throws {
        try performing {
            guard let response = try connection.run(.release(button.button)) else { return }
            let result = try response.result(as: ReleaseResult.self)
            Output.line("\(result.action.rawValue) (held \(result.heldMilliseconds) ms)")
        }
    }
}

struct Seek: QuietCommand {
    static let configuration = CommandConfiguration(
        commandName: "seek",
        abstract: "Seek in the current track.",
        discussion: "POSITION: +SECONDS or -SECONDS (relative), SECONDS, M:SS or H:MM:SS (absolute).")
    // Captures `-10`, which would otherwise read as an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Where to go.", valueName: "POSITION"))
    var position: [String]
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        guard position.count == 1, SeekArgument.parse(position[0]) != nil else {
            throw ValidationError("seek takes one POSITION: +S, -S, S, M:SS or H:MM:SS")
        }
    }

    var command: Command { .seek(SeekArgument.parse(position[0])!) }
}

struct Vol: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vol",
        abstract: "Show or set the volume: N (0–100), +N or -N.")
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("N, +N or -N.", valueName: "VOLUME"))
    var volume: [String] = []
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        guard volume.count <= 1, volume.allSatisfy({ VolumeArgument.parse($0) != nil }) else {
            throw ValidationError("vol takes N (0–100), +N or -N")
        }
    }

    func run() throws {
        try performing {
            let command: Command = volume.first.map { .volume(VolumeArgument.parse($0)!) } ?? .status
            guard let response = try options.run(command) else { return }
            Output.line("volume: \(try response.result(as: Status.self).volume)%")
        }
    }
}

struct RepeatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "repeat", abstract: "Repeat off, one or all.")
    @Argument(help: "off, one or all") var mode: RepeatMode
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard let response = try options.run(.mode(repeat: mode, shuffle: nil)) else { return }
            Output.line("repeat: \(try response.result(as: Status.self).repeat.rawValue)")
        }
    }
}

enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

struct Shuffle: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "shuffle", abstract: "Shuffle on or off.")
    @Argument(help: "on or off") var setting: Switch
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard let response = try options.run(.mode(repeat: nil, shuffle: setting == .on)) else { return }
            Output.line("shuffle: \(try response.result(as: Status.self).shuffle ? "on" : "off")")
        }
    }
}

extension RepeatMode: ExpressibleByArgument {}
