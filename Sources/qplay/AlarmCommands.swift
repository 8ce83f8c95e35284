import ArgumentParser
import QPlayProtocol

struct AlarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm",
        abstract: "Set an alarm that starts music at a time of day; `alarm rm N` removes one.",
        discussion: """
            TIME is HH:MM or HH:MM:SS, local time. Without --days the alarm rings once (the \
            next time TIME comes), else on those days: mon-fri, sat,sun, daily, weekdays, \
            weekends. What it plays: TEXT (title contains), --where EXPR or --id N, added \
            after the playing entry; without them the queue resumes. --volume sets the volume, \
            --fade-in raises it from silence over that many seconds. Something already playing \
            is not interrupted. Examples: qplay alarm 07:00 --days mon-fri --where \
            album~morning --fade-in 30; qplay alarm rm 3
            """)
    @Argument(help: "TIME [TEXT...], or `rm N`.") var words: [String] = []
    @Option(help: ArgumentHelp("Days it rings on: mon-fri, sat,sun, daily…", valueName: "DAYS")) var days: String?
    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(WhereExpression.help, valueName: "EXPR"))
    var expressions: [String] = []
    @Option(name: .customLong("id"), help: ArgumentHelp("A track id; repeatable.", valueName: "N"))
    var ids: [Int64] = []
    @Option(help: ArgumentHelp("Volume 0-100 to ring at.", valueName: "N")) var volume: Int?
    @Option(
        name: .customLong("fade-in"), help: ArgumentHelp("Seconds the volume rises from silence.", valueName: "SECONDS"))
    var fadeIn: Double?
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        _ = try command()
    }

    func command() throws -> Command {
        guard let first = words.first else { throw ValidationError("alarm needs TIME (HH:MM[:SS]) or `rm N`") }
        if first == "rm" {
            guard words.count == 2, let id = Int64(words[1]) else {
                throw ValidationError("alarm rm takes the alarm's number, as `qplay alarms` prints it")
            }
            return .alarmRemove(id)
        }
        guard AlarmTime.isValid(first) else {
            throw ValidationError("alarm TIME is HH:MM or HH:MM:SS (24-hour, local time); got \"\(first)\"")
        }
        let predicates = try TrackSelection.predicates(text: Array(words.dropFirst()), expressions: expressions)
        if !predicates.isEmpty && !ids.isEmpty { throw ValidationError("give either TEXT/--where or --id, not both") }
        var dayNames: [String] = []
        if let days {
            guard let parsed = AlarmDays.parse(days) else {
                throw ValidationError("--days takes days such as mon-fri, sat,sun, daily, each day once; got \"\(days)\"")
            }
            dayNames = parsed
        }
        if let volume, !(0...100).contains(volume) { throw ValidationError("--volume must be 0 to 100") }
        if let fadeIn, !(0...3600).contains(fadeIn) { throw ValidationError("--fade-in must be 0 to 3600 seconds") }
        let selection: AlarmSelection? = !ids.isEmpty ? .ids(ids) : predicates.isEmpty ? nil : .query(predicates)
        return .alarmAdd(AlarmRequest(time: first, days: dayNames, selection: selection, volume: volume, fadeIn: fadeIn))
    }

    func run() throws {
        try performing {
            let command = try command()
            guard let response = try options.run(command) else { return }
            switch command {
            case .alarmAdd:
                let id = try response.result(as: AlarmAdded.self).alarm
                // The daemon's answer, so the line says when it really rings (local time).
                let list = try options.run(.alarmList).map { try $0.result(as: AlarmList.self) }
                if let alarm = list?.alarms.first(where: { $0.alarm == id }) {
                    Output.line("alarm \(id): \(AlarmListing.row(alarm))")
                } else {
                    Output.line("alarm \(id) set")
                }
            default:
                break
            }
        }
    }
}

struct AlarmsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarms", abstract: "List the alarms, soonest first, with when each rings next (local time).")
    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try performing {
            guard let response = try options.run(.alarmList) else { return }
            let alarms = try response.result(as: AlarmList.self).alarms
            if alarms.isEmpty { Output.line("no alarms") }
            for alarm in alarms { Output.line("\(alarm.alarm)  \(AlarmListing.row(alarm))") }
        }
    }
}

/// One alarm as the CLI prints it.
enum AlarmListing {
    static func row(_ alarm: Alarm) -> String {
        var parts = [alarm.time, AlarmDays.describe(alarm.days), "next \(alarm.next)"]
        if let volume = alarm.volume { parts.append("volume \(volume)") }
        if let fadeIn = alarm.fadeIn, fadeIn > 0 { parts.append("fade-in \(TimeText.format(fadeIn))") }
        if let predicates = alarm.where {
            parts.append(
                "plays "
                    + predicates.map { "\($0.property.rawValue)\($0.comparison == .equals ? "=" : "~")\($0.value)" }
                    .joined(separator: " "))
        } else if let ids = alarm.ids {
            parts.append("plays " + ids.map { "#\($0)" }.joined(separator: " "))
        } else {
            parts.append("resumes the queue")
        }
        return parts.joined(separator: "  ")
    }
}
