import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to stdout/stderr: status bars read line by line, and a closed
/// stdout ends the program quietly. A failed write to stderr is ignored: the message is
/// lost, the exit status stays the one the error has (`ExitStatus`).
enum Output {
    static func line(_ text: String) {
        write(Array((text + "\n").utf8), to: 1)
    }

    /// Lines in one write: one system call for a listing, not one per line.
    static func lines(_ lines: [String]) {
        var bytes: [UInt8] = []
        for line in lines {
            bytes += line.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        write(bytes, to: 1)
    }

    static func bytes(_ bytes: some Collection<UInt8>) {
        write(Array(bytes), to: 1)
    }

    static func error(_ text: String) {
        write(Array((text + "\n").utf8), to: 2)
    }

    /// On stdout a failed write (EPIPE and the like: whoever read us is gone) ends the
    /// program with `closedStatus` (0 unless the output is the lead-in to an error), as
    /// `qplay queue | head -1` expects; on stderr it is ignored, so an error still exits
    /// with its own status.
    static func write(_ bytes: [UInt8], to descriptor: Int32, closedStatus: Int32 = ExitStatus.success) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if descriptor == 2 { return }
                exit(closedStatus)
            }
            offset += count
        }
    }

    /// Opens /dev/null on any of descriptors 0–2 that is closed (`qplay status 2>&-`):
    /// else the daemon's socket would be opened as descriptor 2 and error messages
    /// written into the connection.
    static func openStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 {
            // open returns the lowest free descriptor: this one.
            _ = open("/dev/null", O_RDWR)
        }
    }

    /// Waits up to `timeout` seconds (nil: no limit) until `descriptor` has bytes or its
    /// end, watching standard output meanwhile: a reader that went away (POLLERR or
    /// POLLHUP, as on a pipe whose reading end was closed) ends the program with status
    /// 0 at once, not at the next write, which may never come while nothing changes.
    /// `descriptor` nil: just the wait. True when `descriptor` is ready; a poll failure
    /// counts as ready, so the caller's read reports it.
    static func waitWatchingOutput(readable descriptor: Int32?, timeout: Double?) -> Bool {
        var descriptors = [pollfd(fd: 1, events: 0, revents: 0)]
        if let descriptor { descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        let deadline = timeout.map { Clock.now() + max(0, $0) }
        while true {
            let milliseconds = deadline.map { Int32(max(0, min(($0 - Clock.now()) * 1000, Double(Int32.max))).rounded(.up)) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return descriptor != nil
            }
            if descriptors[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { exit(0) }
            if descriptors.count > 1, descriptors[1].revents != 0 { return true }
            if ready == 0 { return false }
        }
    }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}
