import CSDBus
import Foundation
import Logging
import QPlayEngine
import QPlayLibrary
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The D-Bus thread: connects to the session bus, owns the MPRIS name, serves
/// /org/mpris/MediaPlayer2 through sd-bus, and sleeps in `poll` on the bus and the wake
/// descriptor. A bus that is missing or goes away is logged and tried again every 5 s;
/// nothing here is fatal. Every sd-bus handle lives and dies on this thread.
final class MPRISBusLoop {
    static let busName = "org.mpris.MediaPlayer2.qplay"
    static let retryInterval = Duration.seconds(5)

    let player: PlayerService
    let library: LibraryService
    let log: Logger
    private let wakeDescriptor: Int32
    private let takeWakeReasons: () -> MPRISWakeReasons
    private let clock = ContinuousClock()
    private let handlers: UnsafeMutablePointer<qplay_mpris_handlers>
    private(set) var bus: OpaquePointer?
    private var rootSlot: OpaquePointer?
    private var playerSlot: OpaquePointer?
    /// What the Player interface showed last; compared with each new one.
    var view: MPRISPlayerView?
    /// The last connection problem logged, so a bus that stays away is not logged every 5 s.
    private var lastProblem: String?
    /// The last track's picture file, so a refresh for the same track reads no tags.
    private var coverCache: (track: FilePath, cover: FilePath?)?

    init(
        player: PlayerService, library: LibraryService, log: Logger, wakeDescriptor: Int32,
        takeWakeReasons: @escaping () -> MPRISWakeReasons
    ) {
        self.player = player
        self.library = library
        self.log = log
        self.wakeDescriptor = wakeDescriptor
        self.takeWakeReasons = takeWakeReasons
        handlers = .allocate(capacity: 1)
        handlers.initialize(
            to: qplay_mpris_handlers(
                context: nil,
                method: { context, call, error in
                    MPRISBusLoop.from(context).answer(call!, error: error!)
                },
                get: { context, interface, property, reply, error in
                    MPRISBusLoop.from(context).read(
                        interface: String(cString: interface!), property: String(cString: property!), into: reply!,
                        error: error!)
                },
                set: { context, property, value, error in
                    MPRISBusLoop.from(context).write(property: String(cString: property!), from: value!, error: error!)
                }))
    }

    deinit {
        handlers.deinitialize(count: 1)
        handlers.deallocate()
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MPRISBusLoop {
        Unmanaged<MPRISBusLoop>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Until `stop`: connect (again), handle what the bus and the core sent, sleep.
    func run() {
        handlers.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        var nextAttempt = clock.now
        while true {
            let reasons = takeWakeReasons()
            if reasons.stopping { break }
            if bus == nil, clock.now >= nextAttempt, !connect() {
                nextAttempt = clock.now + Self.retryInterval
            }
            if reasons.playerChanged, bus != nil { refresh() }
            if bus != nil, !process() {
                disconnect()
                nextAttempt = clock.now + Self.retryInterval
            }
            sleep(until: bus == nil ? nextAttempt : nil)
        }
        disconnect()
        log.debug("MPRIS: D-Bus thread stopped")
    }

    // MARK: The connection

    private func connect() -> Bool {
        let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "(default)"
        var opened: OpaquePointer?
        var result = sd_bus_open_user(&opened)
        guard result >= 0, let opened else {
            problem("cannot connect to the D-Bus session bus at \(address): \(Self.describe(result))")
            return false
        }
        result = qplay_mpris_add_objects(opened, &rootSlot, &playerSlot, handlers)
        var owned = Self.busName
        if result >= 0 {
            result = sd_bus_request_name(opened, Self.busName, 0)
            if result == -EEXIST || result == -EALREADY {
                owned = "\(Self.busName).instance\(getpid())"
                log.warning("D-Bus: \(Self.busName) is owned by another player; serving MPRIS as \(owned)")
                result = sd_bus_request_name(opened, owned, 0)
            }
        }
        guard result >= 0 else {
            problem("cannot serve MPRIS on the D-Bus session bus at \(address): \(Self.describe(result))")
            bus = opened
            disconnect()
            return false
        }
        bus = opened
        lastProblem = nil
        log.info("MPRIS: serving \(owned) on the D-Bus session bus at \(address)")
        view = nil
        refresh()
        return true
    }

    /// Handles everything sd-bus has read or must write; false when the bus is gone.
    private func process() -> Bool {
        guard let bus else { return false }
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 {
                problem("D-Bus: the session bus connection was lost (\(Self.describe(result)))")
                return false
            }
            if result == 0 { break }
        }
        guard sd_bus_is_open(bus) > 0 else {
            problem("D-Bus: the session bus closed the connection")
            return false
        }
        return true
    }

    private func disconnect() {
        rootSlot = sd_bus_slot_unref(rootSlot)
        playerSlot = sd_bus_slot_unref(playerSlot)
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    /// Sleeps until the bus has something, the core or `stop` pokes, sd-bus's own
    /// timeout (a pending call) or `deadline` (the next connection attempt) passes.
    private func sleep(until deadline: ContinuousClock.Instant?) {
        var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var timeout: Int32 = -1
        if let bus {
            descriptors.append(pollfd(fd: sd_bus_get_fd(bus), events: Int16(sd_bus_get_events(bus)), revents: 0))
            var due: UInt64 = 0
            if sd_bus_get_timeout(bus, &due) >= 0, due != UInt64.max {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
                timeout = due <= nowMicroseconds ? 0 : Int32(clamping: (due - nowMicroseconds + 999) / 1000)
            }
        } else if let deadline {
            let left = deadline - clock.now
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            timeout = Int32(clamping: max(0, milliseconds + 1))
        }
        if poll(&descriptors, nfds_t(descriptors.count), timeout) > 0, descriptors[0].revents & Int16(POLLIN) != 0 {
            var count: UInt64 = 0
            _ = Glibc.read(wakeDescriptor, &count, 8)
        }
    }

    private func problem(_ message: String) {
        let line = message.contains("D-Bus") ? message : "D-Bus: \(message)"
        if line != lastProblem {
            log.warning("\(line) (MPRIS retried every 5 s)")
            lastProblem = line
        } else {
            log.debug("\(line)")
        }
    }

    static func describe(_ result: Int32) -> String {
        String(cString: strerror(-result))
    }

    // MARK: Changes

    /// Reads the player, tells the bus which properties changed since the last view, and
    /// `Seeked` when the position jumped (or `seeked` says it did: an MPRIS seek).
    func refresh(seeked: Bool = false) {
        let player = self.player
        let (snapshot, skips) = BlockingAwait.run {
            await player.snapshot(asking: { $0.skipsAvailable })
        }
        let status = snapshot.status
        let metadata = status.entry.map { entry in
            MPRISMetadata(
                entry: entry, duration: status.duration, musicDirectory: library.musicDirectory,
                art: cover(of: entry.track))
        } ?? .empty
        let new = MPRISPlayerView(status: status, skips: skips, metadata: metadata, takenAt: clock.now)
        // Before the signals: sd-bus reads the changed values through `read`, from `view`.
        let old = view
        view = new
        guard let bus, let old else { return }
        let changed = new.changedProperties(since: old)
        if !changed.isEmpty {
            let result = qplay_mpris_emit_changed(bus, QPLAY_MPRIS_PLAYER_INTERFACE, changed.joined(separator: " "))
            if result < 0 { log.debug("D-Bus: PropertiesChanged not sent: \(Self.describe(result))") }
        }
        if seeked || new.seeked(since: old) {
            _ = qplay_mpris_emit_seeked(bus, MPRISTime.microseconds(new.position))
        }
    }

    /// The track's picture as a file (docs/MPRIS.md): the embedded front cover written
    /// once to the art cache, else the image beside the file.
    private func cover(of track: Track) -> FilePath? {
        let file = library.musicDirectory.pushing(track.path)
        if let coverCache, coverCache.track == file { return coverCache.cover }
        var cover: FilePath?
        let embedded = try? library.artwork.embedded(file, choice: .frontCover)
        if let embedded { cover = library.artCache?.file(for: embedded.bytes, mime: embedded.mime) }
        if cover == nil { cover = FolderImage.find(beside: file) }
        ArtworkKnowledge.shared.learn(track.id, hasArt: embedded != nil || cover != nil)
        coverCache = (file, cover)
        return cover
    }
}
