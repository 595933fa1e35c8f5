import ParallelWork
import Testing

@Suite("parallelMap")
struct ParallelMapTests {
    @Test(arguments: [1, 2, 3, 8])
    func resultsComeInIndexOrderWhateverTheThreadCount(threads: Int) {
        #expect(parallelMap(count: 100, threads: threads) { $0 * $0 } == (0..<100).map { $0 * $0 })
        #expect(parallelMap(count: 0, threads: threads) { $0 }.isEmpty)
    }

    /// Runs cover every index once, in order, the last one shorter when the length does not
    /// divide the count.
    @Test(arguments: [(0, 4), (1, 4), (8, 4), (9, 4), (100, 7)])
    func runsCoverEveryIndexInOrder(count: Int, length: Int) {
        let runs = parallelMap(runsOf: length, count: count, threads: 3) { $0 }
        #expect(runs.flatMap { Array($0) } == Array(0..<count))
        #expect(runs.dropLast().allSatisfy { $0.count == length })
        #expect(runs.count == (count + length - 1) / length)
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

    private struct Refusal: Error, Equatable {
        var index: Int
    }

    /// Whatever the threads and slices, the outputs are those of one thread going in order and
    /// stopping at the first failure, with that failure.
    @Test(arguments: [1, 2, 3, 8])
    func untilFailureIsWhatOneThreadInOrderGives(threads: Int) {
        for failing in [nil, 0, 1, 37, 38, 99] as [Int?] {
            // Index i gives i % 3 outputs; the failing indices are `failing` and every later
            // multiple of 40, so only the first may be reported.
            let body = { @Sendable (index: Int, outputs: inout [Int]) throws(Refusal) in
                if index == failing || (failing.map { index > $0 } ?? false) && index.isMultiple(of: 40) { throw Refusal(index: index) }
                outputs += Array(repeating: index, count: index % 3)
            }
            var expected: [Int] = []
            var expectedFailure: Refusal?
            for index in 0..<100 {
                do throws(Refusal) { try body(index, &expected) } catch {
                    expectedFailure = error
                    break
                }
            }
            let result = parallelMapUntilFailure(count: 100, threads: threads, minimumPerSlice: 10, body)
            #expect(Array(result.outputs) == expected, "failing at \(String(describing: failing))")
            #expect(result.failure == expectedFailure)
        }
    }

    /// Ordered outputs come out in order, each moved out: the one handed out is its only holder.
    @Test func orderedOutputsAreHandedOutInOrderAndMoved() {
        final class Box {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        var outputs = OrderedOutputs(runs: [[Box(1), Box(2)], [], [Box(3)], [Box(4), Box(5), Box(6)]])
        var values: [Int] = []
        while var box = outputs.next() {
            let onlyHolder = isKnownUniquelyReferenced(&box)
            #expect(onlyHolder, "\(box.value)")
            values.append(box.value)
        }
        #expect(values == [1, 2, 3, 4, 5, 6])
        #expect(outputs.next() == nil)
    }
}
