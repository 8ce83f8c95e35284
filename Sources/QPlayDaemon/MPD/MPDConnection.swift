import NIOCore
import Synchronization

/// The parts of one MPD connection that events reach from other threads: the channel
/// and the idle state. The subsystems that changed since the client's last `idle`
/// accumulate here; while the client idles, the first matching change answers it.
final class MPDConnection: Sendable {
    private struct IdleState {
        var pending = MPDSubsystems()
        /// Set while the client waits in `idle` for these subsystems.
        var waiting: MPDSubsystems?
    }

    private let channel: any Channel
    private let idle = Mutex(IdleState())
    private let authorized: Atomic<Bool>

    /// `authorized`: no password is needed.
    init(channel: any Channel, authorized: Bool) {
        self.channel = channel
        self.authorized = Atomic(authorized)
    }

    /// Whether the client gave the password (or none is needed): until then a silent
    /// connection is closed sooner.
    var isAuthorized: Bool { authorized.load(ordering: .relaxed) }

    func markAuthorized() { authorized.store(true, ordering: .relaxed) }

    func write(_ bytes: [UInt8]) {
        // Written under the idle lock elsewhere; here from the request loop, which holds
        // no idle wait while it answers.
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }

    func close() {
        channel.close(promise: nil)
    }

    /// Adds changed subsystems; answers an `idle` that waits for one of them.
    func notify(_ subsystems: MPDSubsystems) {
        idle.withLock { state in
            state.pending.formUnion(subsystems)
            if let waiting = state.waiting, !state.pending.isDisjoint(with: waiting) {
                state.waiting = nil
                channel.writeAndFlush(ByteBuffer(bytes: Self.take(&state.pending, matching: waiting)), promise: nil)
            }
        }
    }

    /// `idle`: the answer now when a wanted subsystem changed since the last idle, else
    /// nil and the connection waits (`notify` answers it).
    func beginIdle(_ wanted: MPDSubsystems) -> [UInt8]? {
        idle.withLock { state in
            if !state.pending.isDisjoint(with: wanted) {
                return Self.take(&state.pending, matching: wanted)
            }
            state.waiting = wanted
            return nil
        }
    }

    /// Ends a waiting `idle`. True when it was still waiting (and is now answered with
    /// a bare `OK`, written here under the lock so no event answer can follow it); false
    /// when an event already answered it.
    func endIdle() -> Bool {
        idle.withLock { state in
            guard state.waiting != nil else { return false }
            state.waiting = nil
            channel.writeAndFlush(ByteBuffer(bytes: Array("OK\n".utf8)), promise: nil)
            return true
        }
    }

    /// Whether the client waits in `idle` now.
    var isIdle: Bool { idle.withLock { $0.waiting != nil } }

    private static func take(_ pending: inout MPDSubsystems, matching wanted: MPDSubsystems) -> [UInt8] {
        // As MPD: the changes the idle did not ask for are dropped with the rest.
        let fired = pending.intersection(wanted)
        pending = []
        var bytes: [UInt8] = []
        for subsystem in fired.members {
            bytes += "changed: ".utf8
            bytes += subsystem.rawValue.utf8
            bytes.append(0x0A)
        }
        bytes += "OK\n".utf8
        return bytes
    }
}
