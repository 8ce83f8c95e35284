import Foundation
import SystemPackage

/// A private user and mount namespace (`unshare -Urm`), where an unprivileged test can
/// mount and unmount a tmpfs inside a music folder for a daemon started in it; a second
/// process joins the daemon's namespace with `nsenter` to unmount or mount again.
public enum MountNamespace {
    static let unshare = "/usr/bin/unshare"
    static let nsenter = "/usr/bin/nsenter"

    /// Whether this machine lets an unprivileged user do that (kernels and containers
    /// may forbid user namespaces); checked by mounting a tmpfs once.
    public static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: unshare),
            FileManager.default.isExecutableFile(atPath: nsenter)
        else { return false }
        let folder = TemporaryDirectory("qplay-mount-check")
        defer { folder.remove() }
        let result = try? runProcess(
            URL(fileURLWithPath: unshare),
            ["-Urm", "sh", "-c", "mount -t tmpfs qplay-check \"$1\" && umount \"$1\"", "sh", folder.path.string],
            killAfter: 10)
        return result?.status == 0
    }()

    /// The `launcher` for `DaemonProcess.start` that runs `script` (a `sh` script; its
    /// arguments `$1`… are `arguments`) in a new namespace, then the daemon in it.
    public static func launcher(script: String, _ arguments: [String]) -> [String] {
        [unshare, "-Urm", "sh", "-c", "\(script) && shift \(arguments.count) && exec \"$@\"", "sh"] + arguments
    }

    /// Runs `script` (`sh`, arguments `$1`…) in the namespace of process `pid`.
    @discardableResult
    public static func run(inNamespaceOf pid: Int32, script: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess(
            URL(fileURLWithPath: nsenter),
            ["-t", String(pid), "-U", "-m", "--preserve-credentials", "sh", "-c", script, "sh"] + arguments,
            killAfter: 30)
    }
}
