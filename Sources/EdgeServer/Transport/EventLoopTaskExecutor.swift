import NIOCore

/// Runs tasks on a NIO event loop, so a connection's task (reading requests, the responder,
/// writing responses) stays on the thread that does its socket I/O instead of hopping to
/// Swift's global executor and back for every request.
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
