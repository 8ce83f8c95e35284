import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Busy loops, one per count, for as long as a test wants the machine loaded: `stop()`
/// (or the end of the value) kills them. Each loop also ends by itself once the test
/// process is gone — it checks its parent between bursts of about 10 ms — so a test run
/// killed from outside (a CI run stopped by hand) leaves no loop burning the cores.
public final class CPUHogs: Sendable {
    static let script = "while kill -0 $PPID 2>/dev/null; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; done"

    private let processes: [SpawnedProcess]

    public init(count: Int) throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        processes = try (0..<count).map { _ in
            try SpawnedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", Self.script], stdout: null, stderr: null)
        }
    }

    public func stop() {
        for process in processes {
            process.signal(SIGKILL)
            process.wait()
        }
    }

    deinit { stop() }
}
