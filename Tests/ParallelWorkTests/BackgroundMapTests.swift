import Dispatch
import ParallelWork
import Testing

@Suite("BackgroundMap")
struct BackgroundMapTests {
    @Test func resultsComeInIndexOrder() {
        #expect(BackgroundMap(count: 7) { $0 * 10 }.results() == [0, 10, 20, 30, 40, 50, 60])
        #expect(BackgroundMap(count: 0) { $0 }.results().isEmpty)
    }

    /// Each index has a thread of its own from the start: all of them can be waiting at once,
    /// however many cores there are and whatever Dispatch's pool is doing.
    @Test func everyIndexRunsAtOnce() {
        let count = 6
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let map = BackgroundMap(count: count) { _ in
            arrived.signal()
            return release.wait(timeout: .now() + 10) == .success
        }
        let allArrived = (0..<count).allSatisfy { _ in arrived.wait(timeout: .now() + 10) == .success }
        for _ in 0..<count { release.signal() }
        #expect(allArrived)
        #expect(map.results() == Array(repeating: true, count: count))
    }

    /// The caller goes on while the threads work, and the results stay until it asks: each
    /// index waits for a signal the caller sends only once `init` has returned, which a map that
    /// computed its indices before returning would never see.
    @Test func theCallerGoesOnMeanwhile() {
        let count = 2
        let release = DispatchSemaphore(value: 0)
        let map = BackgroundMap(count: count) { index in
            release.wait(timeout: .now() + 5) == .success ? index + 1 : -1
        }
        for _ in 0..<count { release.signal() }
        #expect(map.results() == [1, 2])
        #expect(map.results() == [1, 2])
    }
}
