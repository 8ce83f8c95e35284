import Foundation
import GRDB
import QPlayEngine
import QPlayLibrary
import QPlayProtocol

/// An alarm as stored: its schedule, what it plays, and when it rings next.
struct StoredAlarm: Sendable, Hashable {
    var id: Int64
    var schedule: AlarmSchedule
    var selection: AlarmSelection?
    var volume: Int?
    var fadeIn: Double?
    /// When it rings next (the wall clock).
    var nextDue: Date
}

/// The alarm table, written at once (alarms are rare edits; each is on disk before the
/// command that made it is answered).
extension StateStore {
    func loadAlarms() throws(StateStoreError) -> [StoredAlarm] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM alarm ORDER BY id").compactMap(Self.alarm)
            }
        } catch {
            throw .readFailed(path: path, reason: "the alarms: \(DatabaseFiles.reason(error))")
        }
    }

    /// Stores a new alarm and answers its id.
    func insertAlarm(_ alarm: StoredAlarm) throws(StateStoreError) -> Int64 {
        do {
            return try database.write { db in
                try db.execute(
                    sql: "INSERT INTO alarm (time, days, selection, volume, fade_in, next_due) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        alarm.schedule.timeText, Self.daysText(alarm.schedule.days), Self.selectionText(alarm.selection),
                        alarm.volume, alarm.fadeIn, alarm.nextDue.timeIntervalSince1970,
                    ])
                return db.lastInsertedRowID
            }
        } catch {
            throw .writeFailed(path: path, reason: DatabaseFiles.reason(error))
        }
    }

    func updateAlarmDue(id: Int64, nextDue: Date) throws(StateStoreError) {
        do {
            try database.write { db in
                try db.execute(
                    sql: "UPDATE alarm SET next_due = ? WHERE id = ?", arguments: [nextDue.timeIntervalSince1970, id])
            }
        } catch {
            throw .writeFailed(path: path, reason: DatabaseFiles.reason(error))
        }
    }

    /// Answers whether there was such an alarm.
    func deleteAlarm(id: Int64) throws(StateStoreError) -> Bool {
        do {
            return try database.write { db in
                try db.execute(sql: "DELETE FROM alarm WHERE id = ?", arguments: [id])
                return db.changesCount > 0
            }
        } catch {
            throw .writeFailed(path: path, reason: DatabaseFiles.reason(error))
        }
    }

    private static func daysText(_ days: Set<AlarmSchedule.Weekday>) -> String {
        days.sorted().map(\.rawValue).joined(separator: ",")
    }

    private struct SelectionRecord: Codable {
        var `where`: [QPlayProtocol.Predicate]?
        var ids: [Int64]?

        init(where predicates: [QPlayProtocol.Predicate]? = nil, ids: [Int64]? = nil) {
            self.where = predicates
            self.ids = ids
        }
    }

    private static func selectionText(_ selection: AlarmSelection?) -> String? {
        let record: SelectionRecord
        switch selection {
        case nil: return nil
        case .query(let predicates)?: record = SelectionRecord(where: predicates)
        case .ids(let ids)?: record = SelectionRecord(ids: ids)
        }
        return (try? JSONEncoder().encode(record)).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// A row this build can read; anything else is skipped rather than failing start-up.
    private static func alarm(_ row: Row) -> StoredAlarm? {
        let dayNames: String = row["days"]
        let days = Set(dayNames.split(separator: ",").compactMap { AlarmSchedule.Weekday(rawValue: String($0)) })
        guard let schedule = AlarmSchedule(time: row["time"], days: days) else { return nil }
        var selection: AlarmSelection?
        if let text: String = row["selection"],
            let record = try? JSONDecoder().decode(SelectionRecord.self, from: Data(text.utf8))
        {
            if let predicates = record.where {
                selection = .query(predicates)
            } else if let ids = record.ids {
                selection = .ids(ids)
            }
        }
        return StoredAlarm(
            id: row["id"], schedule: schedule, selection: selection, volume: row["volume"], fadeIn: row["fade_in"],
            nextDue: Date(timeIntervalSince1970: row["next_due"]))
    }
}
