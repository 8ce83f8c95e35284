import Foundation
import GRDB
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

/// The state database's log is checkpointed on a connection of its own once a commit takes
/// it past 1,000 pages, with no further write to set it off, and the whole log is
/// checkpointed and removed at close (docs/arch/daemon.md, the state database).
@Suite struct WALCheckpointerTests {
    private func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func aLongLogIsCheckpointedBesideTheWriterAndRemovedAtClose() throws {
        let directory = TemporaryDirectory("qplay-wal-checkpoint")
        defer { directory.remove() }
        let path = directory.appending("state.sqlite")
        let database = try StateDatabase(path: path)
        let before = size(path.string)
        // ~8 MB of rows in one commit: 2,000 pages of 4 KiB in the log, none in the file.
        try database.write { db in
            try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
            let insert = try db.makeStatement(sql: "INSERT INTO filler (bytes) VALUES (?)")
            for _ in 0..<2_000 { try insert.execute(arguments: [Data(repeating: 7, count: 4_000)]) }
        }
        #expect(size(path.string + "-wal") > 1_000 * 4096)
        // The checkpointer copies them into the file, with no other write to start it.
        let deadline = Date().addingTimeInterval(20)
        while size(path.string) < before + 1_000 * 4096 && Date() < deadline { usleep(20_000) }
        #expect(size(path.string) >= before + 1_000 * 4096, "the log was not checkpointed")
        try database.write { db in try db.execute(sql: "INSERT INTO filler (bytes) VALUES (x'00')") }
        try database.close()
        #expect(!FileManager.default.fileExists(atPath: path.string + "-wal"))
        let reopened = try StateDatabase(path: path)
        defer { try? reopened.close() }
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM filler") } == 2_001)
    }

    /// A task still running at shutdown (the listening data's follow-up of a scan) used
    /// the state database after it was closed, and GRDB crashed qplayd (exit 139 instead
    /// of 78 when the MPD address was taken, 2 runs in 10): every use after the close is
    /// an error now.
    @Test func aUseAfterCloseIsAnErrorNotACrash() throws {
        let directory = TemporaryDirectory("qplay-state-closed")
        defer { directory.remove() }
        let database = try StateDatabase(path: directory.appending("state.sqlite"))
        try database.close()
        #expect(throws: StateDatabase.Closed.self) { try database.read { try Int.fetchOne($0, sql: "SELECT 1") } }
        #expect(throws: StateDatabase.Closed.self) { try database.write { try $0.execute(sql: "SELECT 1") } }
        #expect(throws: StateDatabase.Closed.self) { try database.integrityCheck() }
        database.releaseMemory()
        try database.close()
    }
}
