import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

struct Meter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meter",
        abstract: "Show the output level live: a bar per channel.",
        discussion: """
            Subscribes to the daemon's `level` events (about 10 a second while playing): \
            RMS and peak in dBFS per channel, after volume. On a terminal it redraws one \
            line per channel in place; otherwise it prints one line per event \
            (`rms_db L R peak_db L R`). It ends on Ctrl-C, when its output is closed, or \
            when the daemon goes away.
            """)
    @OptionGroup var options: ConnectionOptions

    /// Bar width on a terminal, in characters.
    static let barWidth = 40

    func run() throws {
        try performing {
            let client = try options.connect()
            _ = try client.send(.subscribe([.player, .level]))
            let status = try client.send(.status).result(as: Status.self)
            // Events come when the daemon has them: no time limit from here on.
            client.timeout = nil
            var display = MeterDisplay(terminal: isatty(1) != 0 && !options.json, json: options.json)
            display.show(state: status.state, level: status.level)
            for event in client.takePendingEvents() { display.handle(event) }
            while true {
                guard let message = try client.readMessage() else { throw ClientError.closed }
                if case .event(let event) = message { display.handle(event) }
            }
        }
    }
}

/// What `qplay meter` prints: bars redrawn in place on a terminal, else a line per
/// reading.
struct MeterDisplay {
    let terminal: Bool
    let json: Bool
    private var state = PlayerState.stopped
    /// Lines drawn last time (a terminal redraw moves up over them).
    private var drawn = 0

    init(terminal: Bool, json: Bool) {
        self.terminal = terminal
        self.json = json
    }

    mutating func handle(_ event: Event) {
        switch event {
        case .player(let status): show(state: status.state, level: status.level)
        case .level(let level): show(state: .playing, level: level)
        default: break
        }
    }

    mutating func show(state: PlayerState, level: LevelReading?) {
        let changedState = state != self.state
        self.state = state
        guard terminal else {
            if let level, state == .playing { Output.line(Self.plainLine(level, json: json)) }
            return
        }
        guard level != nil || changedState || drawn == 0 else { return }
        redraw(Self.terminalLines(state: state, level: level))
    }

    static func plainLine(_ level: LevelReading, json: Bool) -> String {
        if json { return String(decoding: WireCoding.line(level).dropLast(), as: UTF8.self) }
        let rms = level.rmsDB.map(LevelBar.text).joined(separator: " ")
        let peak = level.peakDB.map(LevelBar.text).joined(separator: " ")
        return "rms_db \(rms) peak_db \(peak)"
    }

    static func terminalLines(state: PlayerState, level: LevelReading?) -> [String] {
        guard state == .playing, let level, !level.rmsDB.isEmpty else {
            let silent = LevelBar.render(LevelReading.floor, width: Meter.barWidth)
            return ["L \(silent)", "R \(silent)  \(state.rawValue)"]
        }
        let names = level.rmsDB.count == 2 ? ["L", "R"] : level.rmsDB.indices.map { "\($0 + 1)" }
        return level.rmsDB.indices.map { channel in
            let rms = level.rmsDB[channel]
            let peak = channel < level.peakDB.count ? level.peakDB[channel] : rms
            return "\(names[channel]) \(LevelBar.render(rms, width: Meter.barWidth)) "
                + "\(pad(LevelBar.text(rms))) dB  peak \(pad(LevelBar.text(peak))) dB"
        }
    }

    private static func pad(_ text: String) -> String {
        String(repeating: " ", count: max(0, 6 - text.count)) + text
    }

    private mutating func redraw(_ lines: [String]) {
        var text = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
        for line in lines { text += "\r\u{1B}[K" + line + "\n" }
        // Fewer lines than before (a mono track after a stereo one): clear the rest.
        if drawn > lines.count {
            for _ in lines.count..<drawn { text += "\r\u{1B}[K\n" }
            text += "\u{1B}[\(drawn - lines.count)A"
        }
        drawn = lines.count
        Output.bytes(Array(text.utf8))
    }
}
