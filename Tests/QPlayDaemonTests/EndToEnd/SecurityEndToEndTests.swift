import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// docs/BEHAVIOUR.md, The daemon: permissions, a single instance, and a crash's leftover socket.
@Suite("End to end: socket safety", .timeLimit(.minutes(2)))
struct SecurityEndToEndTests {
    func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode
    }

    @Test func socketIsPrivateAndASecondDaemonRefusesToStart() throws {
        do {
            try withDaemon { daemon in
                let socketMode = try #require(mode(daemon.socketPath))
                #expect(socketMode & S_IFMT == S_IFSOCK)
                #expect(socketMode & 0o777 == 0o600)
                let directory = (daemon.socketPath as NSString).deletingLastPathComponent
                #expect((mode(directory) ?? 0) & 0o777 == 0o700)

                let second = try runProcess(
                    BuiltProducts.url("qplayd"),
                    ["--music", daemon.musicDirectory, "--socket", daemon.socketPath,
                     "--data-dir", daemon.directory.appending("data2").string, "--output", "null"],
                    environment: daemon.environment)
                // EX_CONFIG: a restart cannot fix it (docs/BEHAVIOUR.md, The daemon: exit codes).
                #expect(second.status == 78)
                #expect(second.stderr.contains("already running"), "\(second.stderr)")
                #expect(second.stderr.contains(daemon.socketPath))
                #expect(try daemon.qplay("ping").status == 0, "the first daemon still serves")
            }
        }
    }

    @Test func aStaleSocketLeftByKillNineIsReplaced() throws {
        do {
            try withDaemon { daemon in
                daemon.kill9()
                #expect((mode(daemon.socketPath) ?? 0) & S_IFMT == S_IFSOCK, "kill -9 leaves the socket behind")
                #expect(try daemon.qplay("status").status == 3)
                try daemon.start()
                #expect(try daemon.qplay("ping").status == 0)
                // Said once, by the second start, naming the socket it replaced.
                let replaced = daemon.log.split(separator: "\n").filter { $0.contains("stale") }
                #expect(replaced.count == 1, "\(daemon.log)")
                #expect(
                    replaced.first?.hasSuffix("replaced a stale socket left by an earlier qplayd at \(daemon.socketPath)") == true,
                    "\(daemon.log)")

                // SIGTERM, by contrast, exits 0 and takes the socket away.
                #expect(daemon.stop() == 0)
                #expect(mode(daemon.socketPath) == nil, "the socket is removed on a clean exit")
                #expect(try daemon.qplay("status").status == 3)
            }
        }
    }
}
