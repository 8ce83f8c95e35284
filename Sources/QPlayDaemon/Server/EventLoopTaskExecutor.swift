import NIOCore

/// Runs a task's jobs on a NIO event loop. A connection's request loop prefers its own
/// channel's event loop, so a cheap request (`status`, `ping`) is read, answered and
/// written on one thread, without waking another: on two cores a thread hop costs more
/// than the whole answer.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
