import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT/SIGTERM into one call of an async shutdown callback, instead of the
/// default instant death, so the daemon can save its state, close the device and remove
/// its socket. Built on DispatchSource: the handler runs on a normal thread, not in
/// signal context. A second signal while the shutdown runs exits at once with status 1
/// (the "press Ctrl-C again" escape hatch) unless `repeatedSignalExits` is false.
public final class SignalHandling: Sendable {
    public let signals: [Int32]
    private let sources: Mutex<[any DispatchSourceSignal]>
    private let received = Counter()

    /// Shared between the handlers (which outlive `init`'s stack) and `receivedCount`.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Installs the handlers at once. `onSignal` receives the signal number.
    public init(
        signals: [Int32] = [SIGINT, SIGTERM], repeatedSignalExits: Bool = true,
        onSignal: @escaping @Sendable (Int32) async -> Void
    ) {
        self.signals = signals
        let queue = DispatchQueue(label: "qplay.signals")
        var made: [any DispatchSourceSignal] = []
        let received = received
        for number in signals {
            // The default action would kill us before the dispatch source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [received] in
                let count = received.value.add(1, ordering: .sequentiallyConsistent).newValue
                if count == 1 {
                    Task { await onSignal(number) }
                } else if repeatedSignalExits {
                    _exit(1)
                }
            }
            source.resume()
            made.append(source)
        }
        sources = Mutex(made)
    }

    /// Dropping the object stops the handling, like `cancel()`: keep it for the daemon's life.
    deinit {
        cancel()
    }

    /// How many of the signals have arrived so far.
    public var receivedCount: Int { received.value.load(ordering: .sequentiallyConsistent) }

    /// Stops listening and restores the default actions.
    public func cancel() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
        for number in signals { signal(number, SIG_DFL) }
    }

    /// A write to a socket whose peer has gone must be an EPIPE error, not a fatal signal.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}
