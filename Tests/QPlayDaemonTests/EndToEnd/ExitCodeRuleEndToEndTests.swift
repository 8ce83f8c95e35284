import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// The exit-code rule of `qplay --help` and README.md (0 success, 1 the daemon answered
/// with an error or nothing matched, 2 usage, 3 no daemon) holds whatever stderr is:
/// closed (`2>&-`), or a pipe whose reader is gone (`qplay seek 2>&1 | true`), where the
/// error message cannot be written.
@Suite("End to end: qplay's exit code rule with stderr closed or unread", .timeLimit(.minutes(2)))
struct ExitCodeRuleEndToEndTests {
    enum ErrorOutput: CaseIterable {
        /// Descriptor 2 closed; stdout to /dev/null.
        case closed
        /// stdout and stderr on one pipe whose reading end was closed before the start.
        case unreadPipe
    }

    /// Runs the real qplay with stderr as `errorOutput`; its exit status, or 128 + N
    /// when signal N ended it.
    func exitStatus(_ arguments: [String], _ errorOutput: ErrorOutput, environment: [String: String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipeWrite: Int32 = -1
        switch errorOutput {
        case .closed:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addclose(&actions, 2)
        case .unreadPipe:
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw CocoaError(.fileWriteUnknown) }
            close(fds[0])
            pipeWrite = fds[1]
            posix_spawn_file_actions_adddup2(&actions, pipeWrite, 1)
            posix_spawn_file_actions_adddup2(&actions, pipeWrite, 2)
        }
        _ = spawnAddCloseFrom(&actions, 3)
        defer { if pipeWrite >= 0 { close(pipeWrite) } }
        // SIGPIPE at its default, as a shell leaves it: qplay must not die of it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let path = BuiltProducts.url("qplay").path
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    @Test(arguments: ErrorOutput.allCases)
    func noDaemonExits3(_ errorOutput: ErrorOutput) throws {
        let directory = TemporaryDirectory("qplay-exit-nodaemon")
        defer { directory.remove() }
        let environment = ["QPLAY_SOCKET": directory.appending("nobody.sock").string]
        // `status` and `next` take the quick path, `seek` and `queue` ArgumentParser's.
        for arguments in [["status"], ["next"], ["seek", "10"], ["queue"], ["status", "--format", "{title}"]] {
            let status = try exitStatus(arguments, errorOutput, environment: environment)
            #expect(status == 3, "qplay \(arguments) with stderr \(errorOutput)")
        }
    }

    @Test(arguments: ErrorOutput.allCases)
    func usageErrorsExit2(_ errorOutput: ErrorOutput) throws {
        let environment = ["QPLAY_SOCKET": "/nonexistent/qplay.sock"]
        let usage = [
            ["seek"], ["stauts"], ["frobnicate"], ["vol", "loud"], ["alarm", "25:00"], ["alarm", "7:00"],
            ["status", "--format", "{nope}"], ["status", "--bogus"], ["--socket"],
        ]
        for arguments in usage {
            let status = try exitStatus(arguments, errorOutput, environment: environment)
            #expect(status == 2, "qplay \(arguments) with stderr \(errorOutput)")
        }
        let badTimeout = try exitStatus(["status"], errorOutput, environment: ["QPLAY_TIMEOUT": "soon"])
        #expect(badTimeout == 2, "a malformed QPLAY_TIMEOUT with stderr \(errorOutput)")
    }

    @Test func refusalsAndNoMatchExit1AndSuccessExits0() throws {
        try withDaemon { daemon in
            for errorOutput in ErrorOutput.allCases {
                for arguments in [["add", "zzzz-nothing"], ["search", "zzzz-nothing"], ["search", "zzzz-nothing", "--json"]] {
                    let status = try exitStatus(arguments, errorOutput, environment: daemon.environment)
                    #expect(status == 1, "qplay \(arguments) with stderr \(errorOutput)")
                }
                #expect(try exitStatus(["ping"], errorOutput, environment: daemon.environment) == 0)
                #expect(try exitStatus(["search", "love"], errorOutput, environment: daemon.environment) == 0)
            }
            // With stderr readable, the no-match line says so, once; --json still prints
            // the (empty) result for scripts.
            let plain = try daemon.qplay("search", "zzzz-nothing")
            #expect(plain.status == 1)
            #expect(plain.stdout.isEmpty)
            #expect(plain.stderr == "qplay: no track matches\n")
            let json = try daemon.qplay("search", "zzzz-nothing", "--json")
            #expect(json.status == 1)
            #expect(try parseObject(json.stdout)["tracks"] as? [Any] != nil)
            let found = try daemon.qplay("search", "love")
            #expect(found.status == 0)
            #expect(!found.stdout.isEmpty && found.stderr.isEmpty)
        }
    }
}
