#if canImport(Glibc)
import Glibc
#endif

/// Prepares the socket path before binding: the directory exists with mode 0700 (when
/// the server creates it) and belongs to this user; a live daemon on the path is an
/// error; a stale socket left by a crash is removed.
enum SocketLocation {
    enum Outcome: Equatable { case free, replacedStaleSocket }

    static func prepare(path: String, uid: uid_t) throws(ServerError) -> Outcome {
        try prepareDirectory(parent(of: path), uid: uid)
        return try clearStaleSocket(at: path)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Creates missing directories with 0700. An existing directory must belong to this
    /// user or be a sticky shared one like /tmp (where the socket's own 0600 mode and the
    /// peer uid check still keep others out); it is never chmod'ed, since it may be a
    /// folder the user chose for other things too.
    static func prepareDirectory(_ directory: String, uid: uid_t) throws(ServerError) {
        var info = stat()
        if lstat(directory, &info) != 0 {
            guard errno == ENOENT else { throw .system(operation: "stat", path: directory, errno: errno) }
            let grandparent = parent(of: directory)
            if grandparent != directory { try prepareDirectory(grandparent, uid: uid) }
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw .system(operation: "mkdir", path: directory, errno: errno)
            }
            // mkdir applies the umask, which can only remove bits; set exactly 0700.
            if chmod(directory, 0o700) != 0 { throw .system(operation: "chmod", path: directory, errno: errno) }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafeDirectory(path: directory, reason: "it is not a directory")
        }
        let sticky = info.st_mode & S_ISVTX != 0
        if info.st_uid != uid && !(sticky && info.st_uid == 0) {
            throw .unsafeDirectory(path: directory, reason: "it belongs to uid \(info.st_uid), not \(uid)")
        }
    }

    /// A socket file nobody listens on is a crash's leftover and is removed; one a daemon
    /// answers on means another instance runs.
    static func clearStaleSocket(at path: String) throws(ServerError) -> Outcome {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw .system(operation: "stat", path: path, errno: errno) }
            return .free
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        switch probe(path) {
        case 0: throw .alreadyRunning(path: path)
        case ECONNREFUSED, ENOENT:
            if unlink(path) != 0 && errno != ENOENT { throw .system(operation: "unlink", path: path, errno: errno) }
            return .replacedStaleSocket
        case let code: throw .system(operation: "connect", path: path, errno: code)
        }
    }

    /// 0 when something accepts connections on `path`, else the connect errno.
    static func probe(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return ENAMETOOLONG }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }
}
