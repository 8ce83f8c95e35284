import CSDBus
import Foundation
import Logging
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The session-bus connection notifications go out on, and the id of the last one shown
/// (each replaces the previous, so a desktop shows one "now playing", not a stack).
/// A connection of its own, not MPRIS's: that one belongs to the MPRIS thread, and a
/// Notify waiting for a slow notification daemon must not hold up media keys. Used only
/// on `NotificationSender`'s queue.
final class NotificationBus {
    /// How long a Notify may take: a hung notification daemon costs this, once per track.
    static let callTimeout = Duration.seconds(5)

    private let log: Logger
    private var bus: OpaquePointer?
    private var lastID: UInt32 = 0
    /// Whether the last failure was logged at notice level; later ones are quiet until
    /// a notification gets through again.
    private var failing = false
    /// Whether the notification daemon reads the body as markup (its `body-markup`
    /// capability), asked once per daemon: then `&`, `<` and `>` in tags are escaped,
    /// or an artist like "Simon & Garfunkel" breaks the body.
    private var bodyMarkup: Bool?

    init(log: Logger) {
        self.log = log
    }

    deinit {
        if let bus { sd_bus_flush_close_unref(bus) }
    }

    /// Shows `notification`, replacing the one shown before. A failure is logged (once
    /// while it lasts) and otherwise ignored: the next track tries again.
    func show(_ notification: TrackNotification) {
        guard let bus = connected() else { return }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var id: UInt32 = 0
        let timeout = Self.timeout
        if bodyMarkup == nil {
            let found = qplay_notify_has_capability(bus, "body-markup", timeout, &error)
            sd_bus_error_free(&error)
            bodyMarkup = found > 0
        }
        let body = bodyMarkup == true ? notification.markupBody : notification.body
        let result = notification.imagePath.map { $0.string }.withOptionalCString { image in
            qplay_notify(bus, lastID, notification.summary, body, image, timeout, &id, &error)
        }
        guard result >= 0 else {
            let reason =
                sd_bus_error_is_set(&error) != 0
                ? "\(String(cString: error.name))\(error.message.map { ": " + String(cString: $0) } ?? "")"
                : String(cString: strerror(-result))
            failed("no notification shown (\(reason))")
            // The next one may reach another notification daemon.
            bodyMarkup = nil
            if sd_bus_is_open(bus) <= 0 { disconnect() }
            return
        }
        lastID = id
        if failing { log.info("notifications: shown again (id \(id))") }
        failing = false
        log.debug("notifications: shown \"\(notification.summary)\" as id \(id)")
    }

    private static var timeout: UInt64 {
        let (seconds, attoseconds) = callTimeout.components
        return UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
    }

    private func connected() -> OpaquePointer? {
        if let bus { return bus }
        var opened: OpaquePointer?
        let result = sd_bus_open_user(&opened)
        guard result >= 0, let opened else {
            failed("cannot connect to the D-Bus session bus (\(String(cString: strerror(-result))))")
            return nil
        }
        bus = opened
        return opened
    }

    private func disconnect() {
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    private func failed(_ message: String) {
        if failing {
            log.debug("notifications: \(message)")
        } else {
            log.notice("notifications: \(message); tried again at the next track change")
            failing = true
        }
    }
}

extension Optional where Wrapped == String {
    fileprivate func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let string): string.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
