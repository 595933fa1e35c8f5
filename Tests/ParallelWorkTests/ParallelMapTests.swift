import ParallelWork
import Testing

@Suite("parallelMap")
struct ParallelMapTests {
    @Test(arguments: [1, 2, 3, 8])
    func resultsComeInIndexOrderWhateverTheThreadCount(threads: Int) {
        #expect(parallelMap(count: 100, threads: threads) { $0 * $0 } == (0..<100).map { $0 * $0 })
        #expect(parallelMap(count: 0, threads: threads) { $0 }.isEmpty)
    }

    /// A build maps over runs of megabytes; the results must be freed once the caller drops
    /// them, or memory grows with the size of the bundle.
    @Test func resultsAreReleasedWithTheReturnedArray() {
        final class Payload: Sendable {}
        nonisolated(unsafe) var watched: [() -> Payload?] = []
        do {
            let results = parallelMap(count: 16, threads: 2) { _ in Payload() }
            watched = results.map { payload in { [weak payload] in payload } }
            #expect(watched.allSatisfy { $0() != nil })
        }
        #expect(watched.allSatisfy { $0() == nil })
    }
}
