#if canImport(Glibc)
import Glibc
#endif

/// `struct ucred` from <sys/socket.h>: Glibc hides it behind `_GNU_SOURCE`, so it is
/// declared here with the same layout for `getsockopt(SO_PEERCRED)`.
struct PeerCredentials: Sendable, Equatable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
