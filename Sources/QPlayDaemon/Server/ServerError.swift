#if canImport(Glibc)
import Glibc
#endif

/// Why the socket server could not start.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another daemon answers on the socket.
    case alreadyRunning(path: String)
    /// Something that is not a socket is in the way; the server does not delete files.
    case notASocket(path: String)
    /// The socket's directory belongs to another user.
    case unsafeDirectory(path: String, reason: String)
    /// A system call failed.
    case system(operation: String, path: String, errno: Int32)
    /// Binding the listening socket failed.
    case bind(path: String, reason: String)

    public var description: String {
        switch self {
        case .alreadyRunning(let path):
            "another qplayd is already running on \(path) (stop it first, or give this one --socket PATH)"
        case .notASocket(let path):
            "\(path) exists and is not a socket; remove it or choose another --socket path"
        case .unsafeDirectory(let path, let reason):
            "refusing to use socket directory \(path): \(reason)"
        case .system(let operation, let path, let code):
            "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        case .bind(let path, let reason):
            "cannot listen on \(path): \(reason)"
        }
    }
}
