#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon's socket is (docs/BEHAVIOUR.md, The daemon): an explicit path, else `QPLAY_SOCKET`, else
/// `$XDG_RUNTIME_DIR/qplay/qplay.sock`, else `/tmp/qplay-$UID/qplay.sock`.
public enum SocketPath {
    public static func resolve(
        explicit: String? = nil, environment: [String: String] = SocketPath.environment(),
        uid: UInt32 = getuid()
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["QPLAY_SOCKET"], !path.isEmpty { return path }
        return defaultPath(environment: environment, uid: uid)
    }

    /// The default path when neither a flag nor `QPLAY_SOCKET` names one.
    public static func defaultPath(environment: [String: String], uid: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/qplay/qplay.sock"
        }
        return "/tmp/qplay-\(uid)/qplay.sock"
    }

    /// The process environment, read without Foundation.
    public static func environment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["QPLAY_SOCKET", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
