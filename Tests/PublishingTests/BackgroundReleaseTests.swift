import Dispatch
import Foundation
import Testing
@testable import Publishing

@Suite struct BackgroundReleaseTests {
    /// Records the thread its last reference is dropped on.
    final class Tracked: @unchecked Sendable {
        let freed: DispatchSemaphore
        let thread: UnsafeMutablePointer<pthread_t?>

        init(freed: DispatchSemaphore, thread: UnsafeMutablePointer<pthread_t?>) {
            self.freed = freed
            self.thread = thread
        }

        deinit {
            thread.pointee = pthread_self()
            freed.signal()
        }
    }

    @Test func freesOnAnotherThread() {
        let freed = DispatchSemaphore(value: 0)
        let thread = UnsafeMutablePointer<pthread_t?>.allocate(capacity: 1)
        thread.initialize(to: nil)
        defer { thread.deallocate() }
        BackgroundRelease.release([Tracked(freed: freed, thread: thread)])
        #expect(freed.wait(timeout: .now() + 60) == .success)
        #expect(thread.pointee.map { pthread_equal($0, pthread_self()) == 0 } == true)
    }
}
