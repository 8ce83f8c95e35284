#if canImport(Glibc)
import Glibc
#endif

/// Plain writes to stderr before logging is set up.
enum FileHandleOutput {
    static func standardError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
