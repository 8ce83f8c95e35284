import Logging
import NIOCore
import QPlayProtocol

/// The NIO side of one client connection, on its event loop: sends the greeting, cuts
/// the incoming bytes into lines and hands them to the connection's request loop one at
/// a time, when it asks (`nextFrame`); tells the server when the client goes away.
///
/// It is also the connection's backpressure, so that a client that writes without
/// reading costs a bounded buffer however much it sends:
/// - the next request is handed out only while the channel is writable, i.e. while the
///   responses the client has not read stay under the write-buffer high-water mark —
///   at most one response goes past it;
/// - reading stops (the `read` event is held back) while the channel is not writable or
///   while more bytes wait in the framer than one longest line, so the rest stays in the
///   kernel's socket buffer and the client's `send` blocks;
/// - a channel that stays unwritable for `unwritableTimeout` without a byte leaving is
///   closed: its client reads nothing, and its buffered responses would otherwise be
///   held for ever. Progress restarts the timeout, so a slow but steady reader gets a
///   60 MB answer whole however long it takes.
///
/// A connection that sends nothing for its frontend's silence timeout
/// (`connection_timeout`) while no request of it is being handled is closed, unless it
/// waits by design (`ConnectionSilence`): the clock restarts on every byte in either
/// direction, so an answered `idle` or a long request ends with a fresh timeout.
///
/// A client that shuts its write side after its requests (`echo … | socat -`) is still
/// answered: the listener allows half-closure, so the end of its input only ends the
/// request loop once every line received has been handed out, and the channel closes
/// after the last answer is written, not before.
///
/// And it keeps a pipelining client from starving the others. The request loop runs on
/// the event loop, and NIO runs every task queued — including ones queued by the tasks
/// it runs — before it polls for I/O again: a loop handing out thousands of buffered
/// lines in a row held every other connection's I/O back for as long (1.6 s in a debug
/// build). So after `burst` lines without I/O on this channel, the next one is handed
/// out from a timer, which NIO runs only after a poll.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Lines handed out in a row before the request loop lets the event loop poll.
    static let burst = 32
    /// The timer that makes it poll; short, as only the poll matters.
    static let yieldPause = TimeAmount.microseconds(50)

    private let greeting: [UInt8]
    private var framer: LineFramer
    /// Unhandled bytes past which reading stops until the request loop catches up. One
    /// longest line: once the framer holds more, its next frame is a line or `.tooLong`,
    /// so a held read always resumes when the request loop asks again.
    private let inputLimit: Int
    private let unwritableTimeout: TimeAmount
    private let logger: Logger
    /// Called on the event loop once the channel is closed; true when the client had
    /// left a full write buffer unread at some point (its freed memory is worth handing
    /// back to the kernel).
    private let onClose: (_ heldFullOutput: Bool) -> Void

    private var context: ChannelHandlerContext?
    /// The request loop waiting for its next frame.
    private var waiting: EventLoopPromise<LineFramer.Frame?>?
    /// A `read` held back by the backpressure, to be passed on when it lifts.
    private var readHeld = false
    private var closed = false
    /// The client shut its write side: no more lines come, the answers still go.
    private var inputClosed = false
    private var heldFullOutput = false
    private var unwritableClose: Scheduled<Void>?
    /// Bytes this handler passed on to be written; less what the channel still buffers,
    /// the bytes that left (`sentBytes`).
    private var queuedBytes = 0
    /// Lines handed out since this channel last read (an I/O event, so after a poll).
    private var handedOutSinceRead = 0
    /// Set while the request loop waits for the poll.
    private var yielding: Scheduled<Void>?
    /// The request loop waiting for room to write the next part of a long answer.
    private var waitingForRoom: EventLoopPromise<Bool>?
    /// How long the connection may stay silent, and what it is doing now (asked of its
    /// frontend when the timer fires); nil: never closed for silence.
    private let silence: (timeouts: SilenceTimeouts, state: @Sendable () -> ConnectionSilence)?
    /// The last byte read or written.
    private var lastActivity = NIODeadline.now()
    private var silenceCheck: Scheduled<Void>?

    init(
        greeting: [UInt8], lineLimit: Int, unwritableTimeout: TimeAmount, logger: Logger,
        silence: (timeouts: SilenceTimeouts, state: @Sendable () -> ConnectionSilence)? = nil,
        onClose: @escaping (_ heldFullOutput: Bool) -> Void
    ) {
        self.silence = silence
        self.greeting = greeting
        self.framer = LineFramer(limit: lineLimit)
        self.inputLimit = lineLimit
        self.unwritableTimeout = unwritableTimeout
        self.logger = logger
        self.onClose = onClose
    }

    /// The next request line for the request loop, once the client has room for its
    /// answer; nil when the connection is closed and every received line was handed out.
    /// One caller at a time (the connection's request loop); on the event loop.
    func nextFrame(eventLoop: any EventLoop) -> EventLoopFuture<LineFramer.Frame?> {
        precondition(waiting == nil, "one request loop per connection")
        if handedOutSinceRead >= Self.burst && framer.pendingCount > 0 {
            let promise = eventLoop.makePromise(of: LineFramer.Frame?.self)
            waiting = promise
            yield(on: eventLoop)
            return promise.futureResult
        }
        if let frame = takeFrame() { return eventLoop.makeSucceededFuture(frame) }
        if closed { return eventLoop.makeSucceededFuture(nil) }
        if inputDrained {
            closeAfterWrites()
            return eventLoop.makeSucceededFuture(nil)
        }
        let promise = eventLoop.makePromise(of: LineFramer.Frame?.self)
        waiting = promise
        resumeReading()
        return promise.futureResult
    }

    /// True once the client has room for more of an answer (at once if it has), false
    /// once the connection is closed: an answer written in parts waits here between
    /// them, so what a connection holds stays near the high-water mark however long
    /// the answer. One caller at a time (the request loop); on the event loop.
    func room(eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        precondition(waitingForRoom == nil, "one request loop per connection")
        if closed { return eventLoop.makeSucceededFuture(false) }
        if context?.channel.isWritable ?? false { return eventLoop.makeSucceededFuture(true) }
        let promise = eventLoop.makePromise(of: Bool.self)
        waitingForRoom = promise
        return promise.futureResult
    }

    private func answerRoom(_ writable: Bool) {
        guard let promise = waitingForRoom else { return }
        waitingForRoom = nil
        promise.succeed(writable)
    }

    private func yield(on eventLoop: any EventLoop) {
        guard yielding == nil else { return }
        let scheduled = eventLoop.scheduleTask(in: Self.yieldPause) {}
        yielding = scheduled
        let handler = NIOLoopBound(self, eventLoop: eventLoop)
        // Also when cancelled (a read came first, or the event loop shuts down): the
        // request loop must never be left waiting.
        scheduled.futureResult.whenComplete { _ in handler.value.endYield() }
    }

    private func endYield() {
        yielding = nil
        handedOutSinceRead = 0
        deliver()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: greeting)), promise: nil)
        if let silence { scheduleSilenceCheck(context, in: silence.timeouts.limit(silence.state()) ?? silence.timeouts.authenticated) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = .now()
        framer.append(unwrapInboundIn(data).readableBytesView)
        if let yielding {
            yielding.cancel()  // ends the yield: this read came from a poll
        } else {
            handedOutSinceRead = 0
            deliver()
        }
    }

    func read(context: ChannelHandlerContext) {
        if mayRead(context) {
            context.read()
        } else {
            readHeld = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unwritableClose?.cancel()
            unwritableClose = nil
            answerRoom(true)
            deliver()
            resumeReading()
        } else {
            heldFullOutput = true
            if unwritableClose == nil { scheduleUnwritableCheck(context, sentBefore: sentBytes(context)) }
        }
        context.fireChannelWritabilityChanged()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        queuedBytes &+= unwrapOutboundIn(data).readableBytes
        lastActivity = .now()
        context.write(data, promise: promise)
    }

    /// Bytes that left for the socket so far (one answer can be a single 60 MB write,
    /// whose completion comes only at its end: the channel's buffer shows the progress).
    private func sentBytes(_ context: ChannelHandlerContext) -> Int {
        let buffered = (try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0
        return queuedBytes &- buffered
    }

    /// After `unwritableTimeout`, closes the channel if it is still unwritable and no
    /// byte left meanwhile; otherwise waits as long again.
    private func scheduleUnwritableCheck(_ context: ChannelHandlerContext, sentBefore: Int) {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        unwritableClose = context.eventLoop.scheduleTask(in: unwritableTimeout) {
            handler.value.unwritableCheck(sentBefore: sentBefore)
        }
    }

    private func unwritableCheck(sentBefore: Int) {
        guard unwritableClose != nil, let context else { return }
        let sent = sentBytes(context)
        if sent != sentBefore {
            scheduleUnwritableCheck(context, sentBefore: sent)
            return
        }
        unwritableClose = nil
        logger.warning(
            "closing a client that left its responses unread",
            metadata: ["unwritable_seconds": "\(Double(unwritableTimeout.nanoseconds) / 1e9)"])
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        unwritableClose?.cancel()
        unwritableClose = nil
        silenceCheck?.cancel()
        silenceCheck = nil
        answerRoom(false)
        deliver()
        onClose(heldFullOutput)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            deliver()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the peer and the like: the connection is over, nothing else is.
        context.close(promise: nil)
    }

    // MARK: Silence

    private func scheduleSilenceCheck(_ context: ChannelHandlerContext, in delay: Duration) {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        silenceCheck = context.eventLoop.scheduleTask(in: TimeAmount(delay)) {
            handler.value.checkSilence()
        }
    }

    /// Closes the connection if it has been silent for its limit with nothing under
    /// way; otherwise looks again when the limit would next be reached.
    private func checkSilence() {
        guard let silence, !closed, let context else { return }
        let limit = silence.timeouts.limit(silence.state())
        // A request being handled, lines not yet handed out, an answer not yet taken:
        // the client is not silent, it is waiting on the daemon.
        let busy = waiting == nil || framer.pendingCount > 0 || !context.channel.isWritable
        guard let limit, !busy else {
            scheduleSilenceCheck(context, in: limit ?? silence.timeouts.authenticated)
            return
        }
        let quiet = Duration.nanoseconds((NIODeadline.now() - lastActivity).nanoseconds)
        guard quiet >= limit else {
            scheduleSilenceCheck(context, in: limit - quiet)
            return
        }
        logger.info(
            "closing a client silent for longer than connection_timeout",
            metadata: ["silent_seconds": "\(Double(quiet.components.seconds))"])
        context.close(promise: nil)
    }

    // MARK: Half-closure

    /// The client's input ended and every complete line in it was handed out (a last
    /// line without its newline is not a request). While the channel is unwritable a
    /// line may still wait: that is not the end yet.
    private var inputDrained: Bool {
        inputClosed && (context?.channel.isWritable ?? true)
    }

    /// Closes once the answers already written have left: an empty write completes
    /// after every write before it.
    private func closeAfterWrites() {
        guard let context else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    // MARK: Backpressure

    /// A frame for the request loop, if one is complete and may be handled now. After
    /// the close the remaining lines are still handed out (a client may send `next` and
    /// hang up at once), though their answers go nowhere.
    private func takeFrame() -> LineFramer.Frame? {
        guard closed || (context?.channel.isWritable ?? false) else { return nil }
        guard let frame = framer.next() else { return nil }
        handedOutSinceRead += 1
        resumeReading()
        return frame
    }

    /// Hands the waiting request loop a frame, or the end of the connection.
    private func deliver() {
        guard let promise = waiting, yielding == nil else { return }
        if let frame = takeFrame() {
            waiting = nil
            promise.succeed(frame)
        } else if closed {
            waiting = nil
            promise.succeed(nil)
        } else if inputDrained {
            waiting = nil
            closeAfterWrites()
            promise.succeed(nil)
        }
    }

    private func mayRead(_ context: ChannelHandlerContext) -> Bool {
        context.channel.isWritable && framer.pendingCount <= inputLimit
    }

    private func resumeReading() {
        guard readHeld, let context, mayRead(context) else { return }
        readHeld = false
        context.read()
    }
}

/// The request loop's side of a `ConnectionHandler`: asks for frames from any thread.
struct ConnectionFrames: Sendable {
    private let handler: NIOLoopBound<ConnectionHandler>

    /// On the channel's event loop.
    init(_ handler: ConnectionHandler, eventLoop: any EventLoop) {
        self.handler = NIOLoopBound(handler, eventLoop: eventLoop)
    }

    func next() async -> LineFramer.Frame? {
        await onEventLoop { $0.nextFrame(eventLoop: $1) } ?? nil
    }

    /// Waits until the client has room for more of an answer; false once the
    /// connection is closed (the rest of the answer goes nowhere).
    func room() async -> Bool {
        await onEventLoop { $0.room(eventLoop: $1) } ?? false
    }

    private func onEventLoop<Value: Sendable>(
        _ body: @escaping @Sendable (ConnectionHandler, any EventLoop) -> EventLoopFuture<Value>
    ) async -> Value? {
        let eventLoop = handler.eventLoop
        let future: EventLoopFuture<Value>
        if eventLoop.inEventLoop {
            // The request loop runs on this event loop (its executor preference): no hop.
            future = body(handler.value, eventLoop)
        } else {
            let handler = self.handler
            future = eventLoop.flatSubmit { body(handler.value, eventLoop) }
        }
        return try? await future.get()
    }
}
