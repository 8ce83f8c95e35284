import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a line whenever the player changes (for status bars).",
        discussion: """
            Subscribes to the daemon's events; never polls. While playing it also prints once \
            per second so the position moves (computed from the last status, no request). \
            Identical lines are not repeated. When the daemon goes away it prints an empty \
            line (--waybar: class "offline"; --i3blocks: a single space, since i3blocks keeps \
            the last text of a persistent block on an empty line) and reconnects with \
            backoff; a daemon that sends \
            no greeting or answer within --timeout, or that turns the connection away, counts \
            as gone. Once subscribed it waits for events without a limit, but pings a daemon \
            it has not heard from for six timeouts (30 s by default) and reconnects when \
            that goes unanswered. It exits with status 0 as soon as its output is closed \
            (the bar went away), also while nothing changes. --waybar escapes Pango markup \
            (& < >) in the tags it fills in; the --format template's own text is passed as \
            written, so it may hold markup.
            """)
    @Option(help: "A template with {placeholders}, as `qplay status --format`.") var format: String?
    @Flag(help: "Waybar custom-module JSON: text, tooltip, class, alt, percentage.") var waybar = false
    @Flag(help: "Lines for an i3blocks persistent block: a single space, not an empty line, clears it.")
    var i3blocks = false
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        let forms = [("--json", options.json), ("--waybar", waybar), ("--i3blocks", i3blocks)].filter(\.1).map(\.0)
        if forms.count > 1 { throw ValidationError("choose one of --json, --waybar and --i3blocks") }
        try checkFormat(format)
    }

    func run() throws {
        var printer = LinePrinter(
            mode: waybar ? .waybar(format) : options.json ? .json : .format(format, hidden: i3blocks ? " " : ""))
        let connection = options.connection
        var backoff = 0.25
        while true {
            // A daemon that refuses (e.g. at its connection cap) or stays silent past the
            // timeout counts as away, like a missing one.
            if let client = try? SocketClient(path: connection.socketPath, timeout: connection.timeout.seconds) {
                backoff = 0.25
                follow(client, printer: &printer)
                client.close()
            }
            printer.offline()
            _ = Output.waitWatchingOutput(readable: nil, timeout: backoff)
            backoff = min(backoff * 2, 5)
        }
    }

    /// How many timeouts a subscribed watch goes without hearing from the daemon before
    /// it sends a `ping` to see whether the connection still works (a stopped daemon
    /// keeps its socket open but answers nothing): 30 s at the default 5 s.
    static let quietTimeouts = 6.0

    /// Prints until the connection ends or the daemon stops answering.
    private func follow(_ client: SocketClient, printer: inout LinePrinter) {
        do {
            _ = try client.send(.subscribe(StatusFormat.showsLevel(format) ? [.player, .queue, .level] : [.player, .queue]))
            var status = try client.send(.status).result(as: Status.self)
            var receivedAt = Clock.now()
            var pending = client.takePendingEvents()
            var lastHeard = receivedAt
            // The `ping` sent after a quiet spell, and when its answer is due.
            var probe: (id: RequestID, deadline: Double)?
            let answerTime = client.timeout ?? Timeout.standard.seconds
            let quietLimit = Self.quietTimeouts * answerTime
            printer.print(status)
            while true {
                for event in pending {
                    switch event {
                    case .player(let update):
                        status = update
                        receivedAt = Clock.now()
                    case .queue(let change):
                        status.queueLength = change.length
                        status.queueModified = change.modified
                    case .level(let level): status.level = level
                    case .scan, .error, .outputError, .storage, .alarm, .playlists: break
                    }
                }
                if !pending.isEmpty { printer.print(Self.advanced(status, by: Clock.now() - receivedAt)) }
                pending = []
                let now = Clock.now()
                let moving = status.state == .playing && status.seeking == .none && status.position != nil
                // Wake when the position passes the next whole second, or when the daemon
                // has been quiet too long (or owes the probe's answer).
                var wakeAt = probe?.deadline ?? lastHeard + quietLimit
                if moving {
                    let position = status.position! + (now - receivedAt)
                    wakeAt = min(wakeAt, now + max(0.02, position.rounded(.down) + 1 - position))
                }
                if client.hasBufferedLine()
                    || Output.waitWatchingOutput(readable: client.fileDescriptor, timeout: max(0, wakeAt - now))
                {
                    // An end of stream is a daemon gone; a line cut short times out inside.
                    guard let message = try client.readMessage() else { return }
                    lastHeard = Clock.now()
                    switch message {
                    case .event(let event): pending = [event]
                    case .response(let response) where response.id == probe?.id: probe = nil
                    case .response, .greeting: continue
                    }
                    continue
                }
                let later = Clock.now()
                if let due = probe?.deadline, later >= due { return }
                if probe == nil, later >= lastHeard + quietLimit {
                    probe = (try client.submit(.ping), later + answerTime)
                }
                if moving { printer.print(Self.advanced(status, by: later - receivedAt)) }
            }
        } catch {
            return
        }
    }

    /// The status with the position moved on by the time since it arrived, while playing.
    static func advanced(_ status: Status, by elapsed: Double) -> Status {
        guard status.state == .playing, status.seeking == .none, let position = status.position else {
            return status
        }
        var moved = status
        moved.position = min(position + max(0, elapsed), status.duration ?? .infinity)
        return moved
    }
}

/// Prints watch lines in the chosen form, skipping a line equal to the last one.
struct LinePrinter {
    enum Mode {
        /// `hidden`: the line when there is nothing to show (stopped, no daemon).
        case format(String?, hidden: String)
        case json
        case waybar(String?)
    }

    let mode: Mode
    private var last: String?

    init(mode: Mode) { self.mode = mode }

    mutating func print(_ status: Status) {
        let line: String
        switch mode {
        case .format(let template, let hidden):
            let text = template.map { StatusFormat.render($0, status: status) } ?? StatusFormat.defaultText(status)
            line = text.isEmpty ? hidden : text
        case .json:
            line = String(decoding: WireCoding.line(status).dropLast(), as: UTF8.self)
        case .waybar(let template):
            line = String(decoding: WireCoding.line(WaybarLine(status: status, format: template)).dropLast(), as: UTF8.self)
        }
        emit(line)
    }

    /// No daemon: an empty line hides a status bar module (i3blocks: a space).
    mutating func offline() {
        switch mode {
        case .format(_, let hidden): emit(hidden)
        case .json: break
        case .waybar: emit(String(decoding: WireCoding.line(WaybarLine.offline).dropLast(), as: UTF8.self))
        }
    }

    private mutating func emit(_ line: String) {
        guard line != last else { return }
        last = line
        Output.line(line)
    }
}

/// Monotonic seconds.
enum Clock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
