import Foundation
import QPlayEngine
import QPlayProtocol
import QPlayTestSupport
import Testing

@testable import QPlayDaemon

/// The `alarm` table of the state database (migration v4), through real SQLite.
@Suite struct AlarmStoreTests {
    @Test func alarmsSurviveReopeningWithTheirSelectionAndDueTime() throws {
        let dir = TemporaryDirectory("qplay-alarms")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        let due = Date(timeIntervalSince1970: 1_800_000_000.5)
        var ids: [Int64] = []
        do {
            let store = try StateStore(path: path)
            ids.append(
                try store.insertAlarm(
                    StoredAlarm(
                        id: 0, schedule: AlarmSchedule(hour: 7, minute: 0, days: [.mon, .fri]),
                        selection: .query([QPlayProtocol.Predicate(.album, .contains, "Dawn")]), volume: 40, fadeIn: 2.5,
                        nextDue: due)))
            ids.append(
                try store.insertAlarm(
                    StoredAlarm(
                        id: 0, schedule: AlarmSchedule(hour: 22, minute: 15, second: 30), selection: .ids([7, 3]),
                        volume: nil, fadeIn: nil, nextDue: due)))
            ids.append(
                try store.insertAlarm(
                    StoredAlarm(
                        id: 0, schedule: AlarmSchedule(hour: 6, minute: 0), selection: nil, volume: nil, fadeIn: nil,
                        nextDue: due)))
            try store.updateAlarmDue(id: ids[1], nextDue: due.addingTimeInterval(86_400))
            #expect(try store.deleteAlarm(id: ids[2]))
            #expect(try !store.deleteAlarm(id: ids[2]))
            try store.close()
        }
        #expect(ids == [1, 2, 3])
        let reopened = try StateStore(path: path)
        defer { try? reopened.close() }
        let alarms = try reopened.loadAlarms()
        #expect(alarms.map(\.id) == [1, 2])
        #expect(alarms[0].schedule == AlarmSchedule(hour: 7, minute: 0, days: [.mon, .fri]))
        #expect(alarms[0].selection == .query([QPlayProtocol.Predicate(.album, .contains, "Dawn")]))
        #expect(alarms[0].volume == 40 && alarms[0].fadeIn == 2.5)
        #expect(alarms[0].nextDue == due)
        #expect(alarms[1].schedule.timeText == "22:15:30" && alarms[1].schedule.isOnce)
        #expect(alarms[1].selection == .ids([7, 3]))
        #expect(alarms[1].volume == nil && alarms[1].fadeIn == nil)
        #expect(alarms[1].nextDue == due.addingTimeInterval(86_400))
        // A new alarm never takes a removed one's number.
        let next = try reopened.insertAlarm(
            StoredAlarm(id: 0, schedule: AlarmSchedule(hour: 1, minute: 2), selection: nil, volume: nil, fadeIn: nil, nextDue: due))
        #expect(next == 4)
    }
}
