import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What each notification test runs against: a private session bus, `dbus-monitor` on
/// it and dunst (started at once, or later by the test), and qplayd with `notify = true`
/// on that bus. `close` stops dunst; the bus ends with the object.
final class NotificationPeers {
    /// A bus that starts nothing on demand: no notification daemon unless a test starts one
    /// (`--address` replaces the `listen` element).
    static let busConfiguration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """

    let bus = SessionBus()
    let monitor: NotificationMonitor
    let server: NotificationServer

    init(startingServer: Bool = true) throws {
        bus.configuration = Self.busConfiguration
        try bus.start()
        monitor = try NotificationMonitor(bus: bus)
        server = NotificationServer(bus: bus)
        if startingServer { try server.start() }
    }

    /// qplayd with `notify = true` on the bus, serving `music`, its library scanned.
    func daemon(music: TemporaryDirectory) throws -> DaemonProcess {
        let daemon = DaemonProcess(music: music.path.string)
        daemon.sessionBusAddress = bus.address
        let config = try daemon.writeConfig("notify = true\n")
        try daemon.start(["--config", config])
        try daemon.waitForLibrary()
        return daemon
    }

    func close() {
        server.stop()
    }
}

/// A real notification daemon on a private bus: Debian's dunst drawing on an Xvfb
/// display of its own (a free display number), the name org.freedesktop.Notifications
/// owned once `start` returns.
final class NotificationServer {
    let bus: SessionBus
    let directory = TemporaryDirectory("qplay-dunst")
    private var xvfb: SpawnedProcess?
    private var dunst: SpawnedProcess?
    private(set) var display = ""

    var logPath: String { directory.appending("dunst.log").string }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    init(bus: SessionBus) {
        self.bus = bus
    }

    func start() throws {
        try startDisplay()
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(log) }
        // No user config and no Wayland: dunst reads /etc/xdg/dunst/dunstrc and draws on Xvfb.
        dunst = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/dunst"), [],
            environment: bus.environment.merging([
                "DISPLAY": display, "WAYLAND_DISPLAY": "", "XDG_CONFIG_HOME": directory.appending("config").string,
            ]) { _, new in new },
            stdout: log, stderr: log)
        try waitUntil("dunst owns org.freedesktop.Notifications") {
            guard dunst?.isRunning == true else {
                throw LineSocketClient.Failure(description: "dunst exited: \(self.log)")
            }
            return try bus.run(
                "gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"]
            ).stdout.contains("true")
        }
    }

    /// Xvfb on the first display number from a per-process start that is free.
    private func startDisplay() throws {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        for number in (0..<40).map({ 200 + Int(getpid() % 500) + $0 }) {
            guard access("/tmp/.X\(number)-lock", F_OK) != 0 else { continue }
            let process = try SpawnedProcess(
                URL(fileURLWithPath: "/usr/bin/Xvfb"), [":\(number)", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
                stdout: null, stderr: null)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline, access("/tmp/.X11-unix/X\(number)", F_OK) != 0 {
                usleep(50_000)
            }
            if process.isRunning, access("/tmp/.X11-unix/X\(number)", F_OK) == 0 {
                xvfb = process
                display = ":\(number)"
                return
            }
            process.signal(SIGKILL)
            process.wait()
        }
        throw LineSocketClient.Failure(description: "no free X display for Xvfb")
    }

    /// `dunstctl ARGS` on the bus.
    func control(_ arguments: String...) throws -> String {
        let result = try bus.run("dunstctl", arguments)
        guard result.status == 0 else { throw LineSocketClient.Failure(description: "dunstctl \(arguments): \(result)") }
        return result.stdout
    }

    /// The notifications dunst holds (shown ones closed first, so all are in its history),
    /// as `dunstctl history` reports them: key → value, newest first.
    func heldNotifications() throws -> [[String: Any]] {
        _ = try control("close-all")
        var held: [[String: Any]] = []
        try waitUntil("dunst shows nothing") { try control("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "0" }
        let history = try parseObject(try control("history"))
        for group in history["data"] as? [[[String: Any]]] ?? [] {
            for notification in group {
                held.append(notification.compactMapValues { ($0 as? [String: Any])?["data"] })
            }
        }
        return held
    }

    func stop() {
        for process in [dunst, xvfb].compactMap({ $0 }) {
            process.signal(SIGTERM)
            process.wait()
        }
        dunst = nil
        xvfb = nil
    }

    deinit {
        stop()
        directory.remove()
    }
}

/// One Notify call as `dbus-monitor` saw it on the bus, and the id its answer carried.
struct ObservedNotify {
    var sender: String
    var serial: String
    var appName = ""
    var replacesID: UInt32 = 0
    var appIcon = ""
    var summary = ""
    var body = ""
    var actions: [String] = []
    var hints: [String: String] = [:]
    var expireTimeout: Int32 = 0
    /// The id the notification daemon answered with; nil while none came (or an error did).
    var returnedID: UInt32?
}

/// `dbus-monitor` on the private bus, watching the Notifications interface and method
/// returns: an observer of the bus itself, beside qplayd and the notification daemon.
final class NotificationMonitor {
    private let process: LineReadingProcess
    private var lines: [String] = []

    init(bus: SessionBus) throws {
        process = try LineReadingProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-monitor"),
            ["--address", bus.address, "interface='org.freedesktop.Notifications'", "type='method_return'"])
        // dbus-monitor prints the bus's NameAcquired/NameLost once it is a monitor.
        guard let first = process.nextLine(timeout: 20) else {
            throw LineSocketClient.Failure(description: "dbus-monitor printed nothing")
        }
        lines.append(first)
    }

    /// Every Notify call seen so far, in order, with their answers.
    func notifies() -> [ObservedNotify] {
        while let line = process.nextLine(timeout: 0.05) { lines.append(line) }
        var calls: [ObservedNotify] = []
        var current: Int?
        var returning: Int?
        var strings: [String] = []
        var numbers: [String] = []
        func finish() {
            guard let index = current else { return }
            // Strings in order: app_name, app_icon, summary, body, the actions, then the
            // hints' keys and values.
            var call = calls[index]
            call.appName = strings.first ?? ""
            call.appIcon = strings.count > 1 ? strings[1] : ""
            call.summary = strings.count > 2 ? strings[2] : ""
            call.body = strings.count > 3 ? strings[3] : ""
            call.replacesID = numbers.first.flatMap { UInt32($0) } ?? 0
            call.expireTimeout = numbers.count > 1 ? Int32(numbers[1]) ?? 0 : 0
            var rest = Array(strings.dropFirst(4))
            // Hints come as pairs; an even count of strings after the body is the hints alone.
            if rest.count % 2 == 1 { call.actions = [rest.removeFirst()] }
            for pair in stride(from: 0, to: rest.count - 1, by: 2) { call.hints[rest[pair]] = rest[pair + 1] }
            calls[index] = call
            current = nil
        }
        for line in lines {
            if !line.hasPrefix(" ") {
                finish()
                returning = nil
                strings = []
                numbers = []
                let fields = Self.fields(line)
                if line.hasPrefix("method call"), line.hasSuffix("member=Notify") {
                    calls.append(ObservedNotify(sender: fields["sender"] ?? "", serial: fields["serial"] ?? ""))
                    current = calls.count - 1
                } else if line.hasPrefix("method return") {
                    returning = calls.lastIndex {
                        $0.sender == fields["destination"] && $0.serial == fields["reply_serial"]
                    }
                }
                continue
            }
            let value = line.trimmingCharacters(in: .whitespaces)
            if let returning, value.hasPrefix("uint32 ") {
                calls[returning].returnedID = UInt32(value.dropFirst(7))
            } else if current != nil {
                if let quoted = Self.quotedString(value) {
                    strings.append(quoted)
                } else if value.hasPrefix("uint32 ") || value.hasPrefix("int32 ") {
                    numbers.append(String(value.split(separator: " ")[1]))
                }
            }
        }
        finish()
        // The lines are kept: each call parses all of them again.
        return calls
    }

    private static func fields(_ header: String) -> [String: String] {
        var fields: [String: String] = [:]
        for part in header.split(whereSeparator: { $0 == " " || $0 == ";" }) {
            guard let equals = part.firstIndex(of: "=") else { continue }
            fields[String(part[..<equals])] = String(part[part.index(after: equals)...])
        }
        return fields
    }

    /// The text of a `string "…"` line (also inside a `variant`).
    private static func quotedString(_ value: String) -> String? {
        guard let start = value.range(of: "string \"") else { return nil }
        var text = value[start.upperBound...]
        if text.hasSuffix("\"") { text = text.dropLast() }
        return String(text)
    }

    deinit {
        process.terminate()
    }
}
