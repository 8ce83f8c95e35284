import Foundation

/// When an alarm rings (docs/BEHAVIOUR.md, Timers, bookmarks and resume points): a time of day on the local wall clock, on some
/// weekdays or once. Pure: the caller passes the current time and the time zone, and
/// gets the next moment the alarm is due; the daemon compares that moment with the
/// wall clock (a suspend or a clock change does not make it late).
///
/// DST: a time that does not exist on a day (skipped by a spring-forward change) rings
/// at the first moment after the gap with the same offset into it (02:30 becomes 03:30),
/// as cron and phone alarms do; a time that occurs twice (autumn) rings the first time.
public struct AlarmSchedule: Sendable, Hashable {
    public enum Weekday: String, Sendable, Hashable, CaseIterable, Comparable {
        case mon, tue, wed, thu, fri, sat, sun

        /// Calendar's numbering: Sunday is 1.
        var calendarWeekday: Int {
            switch self {
            case .sun: 1
            case .mon: 2
            case .tue: 3
            case .wed: 4
            case .thu: 5
            case .fri: 6
            case .sat: 7
            }
        }

        public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Empty: once, at the next occurrence of the time.
    public var days: Set<Weekday>

    public init(hour: Int, minute: Int, second: Int = 0, days: Set<Weekday> = []) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.days = days
    }

    /// `HH:MM` or `HH:MM:SS` (24-hour), nil for anything else.
    public init?(time: String, days: Set<Weekday> = []) {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 99 : 0
        guard (0...59).contains(second) else { return nil }
        self.init(hour: hour, minute: minute, second: second, days: days)
    }

    public var isOnce: Bool { days.isEmpty }

    /// `HH:MM:SS`.
    public var timeText: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hour)):\(two(minute)):\(two(second))"
    }

    /// The first moment strictly after `date` when the alarm is due, in `timeZone`.
    public func nextFiring(after date: Date, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startOfDay = calendar.startOfDay(for: date)
        // Eight days cover every weekday set, from today on.
        for offset in 0...8 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: startOfDay) else { continue }
            if !days.isEmpty {
                let weekday = calendar.component(.weekday, from: day)
                guard days.contains(where: { $0.calendarWeekday == weekday }) else { continue }
            }
            guard let moment = moment(on: day, calendar: calendar), moment > date else { continue }
            return moment
        }
        // Unreachable for a valid schedule; a day later rather than never.
        return date.addingTimeInterval(86_400)
    }

    /// The wall-clock time on the day that starts at `day`, across a DST change.
    private func moment(on day: Date, calendar: Calendar) -> Date? {
        var components = calendar.dateComponents([.year, .month, .day], from: day)
        components.hour = hour
        components.minute = minute
        components.second = second
        // Calendar answers a time in a spring-forward gap with the moment after it, and
        // an ambiguous autumn time with its first occurrence.
        guard let date = calendar.date(from: components) else { return nil }
        // A gap pushes the time onto the next day only if it is near midnight: keep days apart.
        return calendar.isDate(date, inSameDayAs: day) ? date : nil
    }

    /// The moment as ISO-8601 local time with its offset, `2026-03-29T07:00:00+02:00`.
    public static func localText(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0))-\(pad(c.day ?? 0))T\(pad(c.hour ?? 0)):\(pad(c.minute ?? 0)):\(pad(c.second ?? 0))"
            + "\(sign)\(pad(magnitude / 3600)):\(pad(magnitude % 3600 / 60))"
    }

    /// What to do with an alarm found due when the daemon starts (or wakes): due for at
    /// most `grace` it rings now; later it was missed.
    public static func isMissed(due: Date, now: Date, grace: TimeInterval = 300) -> Bool {
        now.timeIntervalSince(due) > grace
    }
}
