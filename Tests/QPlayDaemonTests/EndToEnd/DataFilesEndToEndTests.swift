import Foundation
import GRDB
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's files: a damaged library index is moved aside and rebuilt, a state file
/// of a newer qplayd is kept aside, databases are private (0600) and folders 0700, and a
/// runtime folder that is a symlink is refused before anything is created in it.
@Suite("End to end: damaged, newer and private data files", .timeLimit(.minutes(2)))
struct DataFilesEndToEndTests {
    @Test func aCorruptLibraryIndexIsMovedAsideAndRebuilt() throws {
        try withDaemon(start: false) { daemon in
            try #require(mkdir(daemon.dataDirectory, 0o700) == 0)
            let library = FilePath(daemon.dataDirectory + "/library.sqlite")
            let garbage = pseudoRandomBytes(count: 64 * 1024, seed: 26)
            try daemon.directory.write(garbage, to: library)

            try daemon.start()
            try daemon.waitForLibrary()
            let aside = try #require(
                try FileManager.default.contentsOfDirectory(atPath: daemon.dataDirectory)
                    .first { $0.hasPrefix("library.sqlite.corrupt-") })
            #expect(try TemporaryDirectory.read(FilePath(daemon.dataDirectory + "/" + aside)) == garbage)
            #expect(daemon.log.contains(daemon.dataDirectory + "/" + aside), "\(daemon.log)")
            let tracks = try daemon.client().ok("search")["tracks"] as? [[String: Any]] ?? []
            #expect(tracks.count == SampleCatalog.allFiles.count)
        }
    }

    @Test func aStateFileOfANewerQplaydIsKeptAside() throws {
        try withDaemon { daemon in
            try daemon.client().ok("add", ["where": []])
            #expect(daemon.stop() == 0)
            let state = daemon.dataDirectory + "/state.sqlite"
            do {
                // What a later schema would leave: a migration this build does not know.
                let database = try DatabaseQueue(path: state)
                try database.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-later')") }
                try database.close()
            }

            try daemon.start()
            let aside = try #require(
                try FileManager.default.contentsOfDirectory(atPath: daemon.dataDirectory)
                    .first { $0.hasPrefix("state.sqlite.newer-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
            #expect(daemon.log.contains(aside), "\(daemon.log)")
            let entries = try daemon.client().ok("queue")["entries"] as? [Any]
            #expect(entries?.isEmpty == true)
            try daemon.client().ok("volume", ["set": 20])
            // The newer file still holds its queue, untouched by this daemon.
            let kept = try DatabaseQueue(path: daemon.dataDirectory + "/" + aside)
            #expect(try kept.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM queue_entry WHERE queue_key IS NOT NULL") } == SampleCatalog.allFiles.count)
            #expect(try kept.read { try Int.fetchOne($0, sql: "SELECT volume FROM player_settings") } == 100)
            try kept.close()
        }
    }

    @Test func databasesArePrivateAndALooserDataFolderIsTightened() throws {
        try withDaemon(start: false) { daemon in
            try #require(mkdir(daemon.dataDirectory, 0o755) == 0)
            chmod(daemon.dataDirectory, 0o755)
            try daemon.start()
            try daemon.waitForLibrary()
            try daemon.client().ok("add", ["where": []])
            #expect(Self.mode(daemon.dataDirectory) == 0o700)
            #expect(daemon.log.contains("made \(daemon.dataDirectory) private"), "\(daemon.log)")
            for name in ["library.sqlite", "library.sqlite-wal", "state.sqlite", "state.sqlite-wal"] {
                #expect(Self.mode(daemon.dataDirectory + "/" + name) == 0o600, "\(name)")
            }
        }
    }

    @Test func aSymlinkedRuntimeFolderIsRefusedBeforeTheLockIsMade() throws {
        let directory = TemporaryDirectory("qplay-symlink")
        defer { directory.remove() }
        let runtime = directory.appending("xdg-run").string
        let elsewhere = directory.appending("elsewhere").string
        try #require(mkdir(runtime, 0o700) == 0 && mkdir(elsewhere, 0o700) == 0)
        try #require(symlink(elsewhere, runtime + "/qplay") == 0)
        let result = try runProcess(
            BuiltProducts.url("qplayd"),
            ["--music", SampleCatalog.directory.string, "--data-dir", directory.appending("data").string, "--output", "null"],
            environment: [
                "XDG_RUNTIME_DIR": runtime, "XDG_DATA_HOME": directory.appending("xdg-data").string,
                "XDG_CONFIG_HOME": directory.appending("xdg-config").string,
            ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }
}
