import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to stdout/stderr: status bars read line by line, and a closed
/// output ends the program quietly.
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

    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                // EPIPE and the like: whoever read us is gone; nothing left to do.
                exit(0)
            }
            offset += count
        }
    }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}
