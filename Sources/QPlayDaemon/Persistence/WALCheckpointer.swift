import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints a WAL database on a connection and a thread of its own, so that no command
/// waits for it. SQLite's automatic checkpoint runs inside the commit that takes the log
/// past 1,000 pages: it copies the pages back into the database and syncs both files
/// (three `fdatasync`s, 30–40 ms on a virtual machine's disk), and the command whose save
/// made that commit answered only after it — every other 10,000-entry playlist load.
/// Here a commit only reports the log's length (SQLite's WAL hook, which takes the
/// automatic checkpoint's place), and past the same 1,000 pages a passive checkpoint runs
/// on the second connection, beside the writer: it never holds a writer up (the log grows
/// meanwhile), and one that could not copy everything is run again after the next commit.
final class WALCheckpointer: Sendable {
    /// SQLite's own automatic checkpoint threshold, in pages of the log.
    static let threshold: Int32 = 1000

    private let connection: DatabaseQueue
    private let thread = DispatchQueue(label: "qplay.wal-checkpoint", qos: .utility)
    private let pending = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)

    init(path: String, configuration: Configuration) throws {
        var configuration = configuration
        configuration.label = (configuration.label ?? "database") + ".checkpoint"
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Leaves `db`'s checkpoints to this checkpointer, which must outlive that connection.
    func takeCheckpoints(of db: Database) {
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, _, _, pages in
                if pages >= WALCheckpointer.threshold, let context {
                    Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().schedule()
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// One checkpoint at a time; commits meanwhile ask for none more.
    private func schedule() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        thread.async { [self] in
            pending.store(false, ordering: .releasing)
            guard !closed.load(ordering: .acquiring) else { return }
            // A busy or failed checkpoint leaves the log as it is: the next commit asks again.
            _ = try? connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
        }
    }

    /// Waits for a running checkpoint, then closes the connection (after the writer's:
    /// the last connection to close checkpoints the whole log and removes it).
    func close() {
        closed.store(true, ordering: .releasing)
        thread.sync {}
        try? connection.close()
    }
}
