import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT/SIGTERM into one call of an async shutdown callback, instead of the
/// default instant death, so the daemon can save its state, close the device and remove
/// its socket. A second signal while the shutdown runs exits at once with status 1
/// (the "press Ctrl-C again" escape hatch) unless `repeatedSignalExits` is false.
///
/// Why not `DispatchSource.makeSignalSource`: on Linux it reads a signalfd and blocks
/// the signal only in the thread that created the source; in a multi-threaded daemon the
/// kernel may deliver the signal to another thread, where `SIG_IGN` drops it — a lost
/// SIGTERM (seen here as a hung test). Instead a real `sigaction` handler, whatever
/// thread it runs on, writes the signal number into a pipe (async-signal-safe), and a
/// dispatch read source on the pipe runs the callback on a normal thread.
public final class SignalHandling: Sendable {
    public let signals: [Int32]
    private let repeatedSignalExits: Bool
    private let onSignal: @Sendable (Int32) async -> Void
    private let received = Atomic<Int>(0)

    /// Installs the handlers at once. `onSignal` receives the signal number.
    public init(
        signals: [Int32] = [SIGINT, SIGTERM], repeatedSignalExits: Bool = true,
        onSignal: @escaping @Sendable (Int32) async -> Void
    ) {
        self.signals = signals
        self.repeatedSignalExits = repeatedSignalExits
        self.onSignal = onSignal
        SignalRelay.shared.register(self)
    }

    /// Dropping the object stops the handling, like `cancel()`: keep it for the daemon's life.
    deinit {
        SignalRelay.shared.unregister(self)
    }

    /// How many of the signals have arrived so far.
    public var receivedCount: Int { received.load(ordering: .sequentiallyConsistent) }

    /// Stops listening and restores the default actions.
    public func cancel() {
        SignalRelay.shared.unregister(self)
    }

    /// Called by the relay, on its queue, once per delivered signal.
    fileprivate func deliver(_ number: Int32) {
        let count = received.add(1, ordering: .sequentiallyConsistent).newValue
        if count == 1 {
            let onSignal = onSignal
            Task { await onSignal(number) }
        } else if repeatedSignalExits {
            _exit(1)
        }
    }

    /// A write to a socket whose peer has gone must be an EPIPE error, not a fatal signal.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Signals whose default action ends the process without the shutdown path (no
    /// state saved, the socket left behind) that qplayd has no use for: SIGHUP comes
    /// when the terminal that started it closes or from `systemctl reload`/`kill -HUP`
    /// habits (qplayd has nothing to reload: the config file is read at start), and
    /// SIGUSR1/SIGUSR2 from tools that send them to any player. Ignored (docs/RUNNING.md).
    public static let ignoredSignals: [Int32] = [SIGHUP, SIGUSR1, SIGUSR2]

    public static func ignoreUnusedSignals() {
        for number in ignoredSignals { signal(number, SIG_IGN) }
    }
}

/// The write end of the self-pipe, read by the signal handler. A plain global with a
/// constant initial value is statically initialised: touching it in a signal handler
/// runs no lazy-initialisation code.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The process-wide part: one pipe, one read source, the `sigaction` handlers, and the
/// `SignalHandling` objects listening.
private final class SignalRelay: Sendable {
    static let shared = SignalRelay()

    private struct Listener {
        weak var handling: SignalHandling?
        var identifier: ObjectIdentifier
    }

    private let listeners = Mutex<[Listener]>([])
    private let queue = DispatchQueue(label: "qplay.signals")
    private let readEnd: Int32
    // Set once in init, never touched again; kept only so the source stays alive.
    nonisolated(unsafe) private let source: any DispatchSourceRead

    private init() {
        var ends: [Int32] = [-1, -1]
        // Non-blocking both ways: the handler must never block, the reader drains.
        guard pipe(&ends) == 0 else {
            fatalError("qplayd: cannot create the signal pipe: errno \(errno)")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: queue)
        source.setEventHandler { [readEnd] in
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                for byte in buffer[..<count] {
                    SignalRelay.shared.dispatch(Int32(byte))
                }
            }
        }
        source.resume()
    }

    func register(_ handling: SignalHandling) {
        listeners.withLock { $0.append(Listener(handling: handling, identifier: ObjectIdentifier(handling))) }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeWriteEnd, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in handling.signals {
            sigaction(number, &action, nil)
        }
    }

    func unregister(_ handling: SignalHandling) {
        let identifier = ObjectIdentifier(handling)
        let stillWanted = listeners.withLock { listeners -> Set<Int32> in
            listeners.removeAll { $0.identifier == identifier || $0.handling == nil }
            return Set(listeners.compactMap(\.handling).flatMap(\.signals))
        }
        for number in handling.signals where !stillWanted.contains(number) {
            signal(number, SIG_DFL)
        }
    }

    private func dispatch(_ number: Int32) {
        let targets = listeners.withLock { $0.compactMap(\.handling).filter { $0.signals.contains(number) } }
        for handling in targets { handling.deliver(number) }
    }
}
