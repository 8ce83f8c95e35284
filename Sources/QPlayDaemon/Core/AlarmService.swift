import Foundation
import Logging
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol

/// The alarm clock (docs/BEHAVIOUR.md, Timers, bookmarks and resume points): keeps the alarms (in the state database, each edit saved
/// before it is answered), and rings them on the wall clock. `AlarmSchedule` computes
/// each alarm's next moment in the local time zone (`TZ` honoured); this service
/// compares those moments with the wall clock at least once a second — never a long
/// monotonic sleep, so a suspend or a clock change does not make an alarm late.
///
/// An alarm found due by more than `grace` (qplayd was down, or the machine slept) is
/// missed: logged, announced with `skipped: "missed"`, and scheduled again (a once-alarm
/// is removed). Up to `grace` late it rings at once, also at start-up.
actor AlarmService {
    static let grace: TimeInterval = 300
    static let checkInterval = Duration.seconds(1)

    private let store: StateStore
    private let player: PlayerService
    private let index: LibraryIndex
    private let events: EventPublisher
    private let log: Logger
    /// The wall clock. `QPLAYD_CLOCK_OFFSET` (seconds) moves it for the tests that
    /// start qplayd "minutes after" an alarm's time (see docs/arch/daemon.md).
    private let clockOffset: TimeInterval
    private var alarms: [Int64: StoredAlarm] = [:]
    private var checker: Task<Void, Never>?

    init(
        store: StateStore, player: PlayerService, index: LibraryIndex, events: EventPublisher, log: Logger,
        clockOffset: TimeInterval = 0
    ) {
        self.store = store
        self.player = player
        self.index = index
        self.events = events
        self.log = log
        self.clockOffset = clockOffset
    }

    private var now: Date { Date().addingTimeInterval(clockOffset) }
    /// Read at each use: `TZ` as the process was started with.
    private var timeZone: TimeZone { TimeZone.current }

    /// Loads the alarms, rings (or reports missed) those that came due while qplayd was
    /// down, and starts checking the clock.
    func start() async {
        do {
            for alarm in try store.loadAlarms() { alarms[alarm.id] = alarm }
        } catch {
            log.error("could not load the alarms: \(error)")
        }
        if !alarms.isEmpty { log.info("\(alarms.count) alarm(s); next \(nextText ?? "none")") }
        await check()
        checker = Task { [weak self] in
            while !Task.isCancelled {
                let pause = await self?.pauseBeforeNextCheck() ?? Self.checkInterval
                try? await Task.sleep(for: pause)
                guard !Task.isCancelled else { return }
                await self?.check()
            }
        }
    }

    func shutdown() {
        checker?.cancel()
    }

    private var nextText: String? {
        alarms.values.map(\.nextDue).min().map { AlarmSchedule.localText($0, in: timeZone) }
    }

    /// At most `checkInterval`; less when an alarm is due sooner, so it rings on time.
    private func pauseBeforeNextCheck() -> Duration {
        guard let due = alarms.values.map(\.nextDue).min() else { return Self.checkInterval }
        let wait = due.timeIntervalSince(now)
        guard wait < 1 else { return Self.checkInterval }
        return .milliseconds(Int64(max(0.01, wait) * 1000))
    }

    // MARK: Commands

    func add(_ request: AlarmRequest) throws -> Int64 {
        let days = Set(request.days.compactMap(AlarmSchedule.Weekday.init(rawValue:)))
        guard let schedule = AlarmSchedule(time: request.time, days: days) else {
            throw ProtocolError.badRequest(
                "alarm_add: `time` must be HH:MM or HH:MM:SS (24-hour local time), got \"\(request.time)\"")
        }
        // A selection that names nothing would only be found out at the alarm's time.
        if let selection = request.selection, try tracks(for: selection).isEmpty {
            throw ProtocolError.noMatch("alarm_add: no track matches the alarm's selection")
        }
        var alarm = StoredAlarm(
            id: 0, schedule: schedule, selection: request.selection, volume: request.volume,
            fadeIn: request.fadeIn, nextDue: schedule.nextFiring(after: now, in: timeZone))
        do {
            alarm.id = try store.insertAlarm(alarm)
        } catch {
            throw ProtocolError.unavailable(error.description)
        }
        alarms[alarm.id] = alarm
        log.info("alarm \(alarm.id) set for \(schedule.timeText); rings \(AlarmSchedule.localText(alarm.nextDue, in: timeZone))")
        return alarm.id
    }

    func list() -> [QPlayProtocol.Alarm] {
        alarms.values.sorted { ($0.nextDue, $0.id) < ($1.nextDue, $1.id) }.map(wire)
    }

    func remove(_ id: Int64) throws {
        guard alarms[id] != nil else { throw ProtocolError.notFound("no alarm \(id)") }
        do {
            _ = try store.deleteAlarm(id: id)
        } catch {
            throw ProtocolError.unavailable(error.description)
        }
        alarms[id] = nil
    }

    // MARK: Ringing

    /// Rings or skips every alarm that is due now.
    private func check() async {
        let now = self.now
        for alarm in alarms.values.sorted(by: { $0.nextDue < $1.nextDue }) where alarm.nextDue <= now {
            let due = AlarmSchedule.localText(alarm.nextDue, in: timeZone)
            var skipped: String?
            if AlarmSchedule.isMissed(due: alarm.nextDue, now: now, grace: Self.grace) {
                let late = Int(now.timeIntervalSince(alarm.nextDue))
                log.warning("alarm \(alarm.id) (\(alarm.schedule.timeText)) missed: it was due at \(due), \(late) s ago, more than \(Int(Self.grace)) s")
                skipped = "missed"
            } else {
                skipped = await ring(alarm)
                if let skipped {
                    log.notice("alarm \(alarm.id) (\(alarm.schedule.timeText)) due at \(due) did not play: \(skipped)")
                } else {
                    log.notice("alarm \(alarm.id) (\(alarm.schedule.timeText)) due at \(due) rang")
                }
            }
            reschedule(alarm, after: now)
            events.publish(.alarm(AlarmFiring(id: alarm.id, time: alarm.schedule.timeText, due: due, skipped: skipped)))
        }
    }

    /// Starts playback; answers why not, or nil.
    private func ring(_ alarm: StoredAlarm) async -> String? {
        var tracks: [QPlayModel.Track] = []
        if let selection = alarm.selection {
            do {
                tracks = try self.tracks(for: selection)
            } catch {
                log.error("alarm \(alarm.id): could not look up its tracks (\(error)); the queue resumes")
            }
            if tracks.isEmpty { log.warning("alarm \(alarm.id): its selection matches no track now; the queue resumes") }
        }
        let volume = alarm.volume
        let fadeIn = alarm.fadeIn ?? 0
        let chosen = tracks
        do {
            let skipped = try await player.perform(chosenByUser: false) { engine, now, position in
                let result = engine.ringAlarm(tracks: chosen, volume: volume, fadeIn: fadeIn, now: now, position: position)
                return (result.skipped, result.output)
            }
            return skipped?.rawValue
        } catch {
            return "\(error)"
        }
    }

    private func reschedule(_ alarm: StoredAlarm, after now: Date) {
        // Removed while it rang (the actor was free during `ring`): gone for good.
        guard alarms[alarm.id] != nil else { return }
        do {
            if alarm.schedule.isOnce {
                alarms[alarm.id] = nil
                _ = try store.deleteAlarm(id: alarm.id)
            } else {
                var next = alarm
                next.nextDue = alarm.schedule.nextFiring(after: max(now, alarm.nextDue), in: timeZone)
                alarms[alarm.id] = next
                try store.updateAlarmDue(id: alarm.id, nextDue: next.nextDue)
            }
        } catch {
            log.error("alarm \(alarm.id): \(error)")
        }
    }

    private func tracks(for selection: AlarmSelection) throws -> [QPlayModel.Track] {
        switch selection {
        case .query(let predicates):
            return Array(try index.search(Query(predicates)))
        case .ids(let ids):
            let found = try index.tracks(ids: ids)
            return ids.compactMap { id in found.first { $0.id == id } }
        }
    }

    private func wire(_ alarm: StoredAlarm) -> QPlayProtocol.Alarm {
        var predicates: [QPlayProtocol.Predicate]?
        var ids: [Int64]?
        switch alarm.selection {
        case .query(let query)?: predicates = query
        case .ids(let list)?: ids = list
        case nil: break
        }
        return QPlayProtocol.Alarm(
            alarm: alarm.id, time: alarm.schedule.timeText, days: alarm.schedule.days.sorted().map(\.rawValue),
            next: AlarmSchedule.localText(alarm.nextDue, in: timeZone), volume: alarm.volume, fadeIn: alarm.fadeIn,
            where: predicates, ids: ids)
    }
}
