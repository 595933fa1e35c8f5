import Dispatch

/// Computes `body(0..<count)` on up to `threads` threads and returns the results in index order,
/// so the result never depends on the thread count.
///
/// Index `i` runs on worker `i % threads`; use it for coarse work items (a run of documents, a
/// block of a gzip stream), where the cost of starting the workers does not matter.
public func parallelMap<T: Sendable>(count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let workers = max(1, min(threads, count))
    let slots = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
    slots.initialize(repeating: nil)
    defer {
        // Release the slots' references (the returned array holds its own).
        _ = slots.deinitialize()
        slots.deallocate()
    }
    let shared = SharedSlots(slots: slots)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for index in stride(from: worker, to: count, by: workers) {
            shared.slots[index] = body(index)
        }
    }
    return slots.map { $0! }
}

/// Computes `body` of each run of `length` consecutive indices of `0..<count` (the last run
/// shorter when `length` does not divide `count`) on up to `threads` threads, and returns the
/// results in run order: ``parallelMap(count:threads:_:)`` over runs of a collection's elements.
public func parallelMap<T: Sendable>(runsOf length: Int, count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
    precondition(length > 0, "runs must not be empty")
    return parallelMap(count: (count + length - 1) / length, threads: threads) { run in
        body((run * length)..<min(count, (run + 1) * length))
    }
}

/// The result slots, shared by the workers; each slot is written by exactly one worker and read
/// only once every worker has finished.
struct SharedSlots<T>: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<T?>
}

/// Calls `body` for every index in `0..<count`, in contiguous slices of at least
/// `minimumPerSlice` indices on up to `threads` threads, and returns what the calls gave in
/// index order up to the first call that failed, with that failure: exactly what one thread
/// going through the indices in order and stopping at the first failure gives.
///
/// `body` gives any number of outputs for its index (a record holding several documents).
public func parallelMapUntilFailure<Output: Sendable, Failure: Error>(
    count: Int, threads: Int, minimumPerSlice: Int, _ body: @Sendable (_ index: Int, _ outputs: inout [Output]) throws(Failure) -> Void
) -> (outputs: OrderedOutputs<Output>, failure: Failure?) {
    let slices = max(1, min(threads, count / max(1, minimumPerSlice)))
    var results = parallelMap(count: slices, threads: slices) { slice -> (outputs: [Output], failure: Failure?) in
        var outputs: [Output] = []
        for index in (count * slice / slices)..<(count * (slice + 1) / slices) {
            do throws(Failure) {
                try body(index, &outputs)
            } catch {
                return (outputs, error)
            }
        }
        return (outputs, nil)
    }
    let failed = results.firstIndex { $0.failure != nil }
    // Each slice's outputs taken out of the results, so that the runs hold them alone.
    var runs: [[Output]] = []
    for index in 0...(failed ?? results.count - 1) {
        runs.append(results[index].outputs)
        results[index].outputs = []
    }
    return (OrderedOutputs(runs: consume runs), failed.flatMap { results[$0].failure })
}

/// Outputs made in runs, handed out in order, each moved out of its run rather than copied (a
/// copy retains everything the output holds, and the runs are not joined into one array).
///
/// Inlinable, so that a reader in another module hands out its outputs through code
/// specialised for them: unspecialised, each `next()` looked up the generic metadata of the
/// arrays it pops from (20 ms of the reading thread's time per 100k documents).
public struct OrderedOutputs<Output>: Sequence, IteratorProtocol {
    /// The runs, last first, each reversed: the next output is the last of the last run.
    @usableFromInline var runs: [[Output]]

    /// The outputs of `runs`, in order.
    @inlinable
    public init(runs: consuming [[Output]]) {
        var runs = consume runs
        // Reversed in their buffers, which moves the outputs (`Array`'s own swaps copy them).
        for index in runs.indices {
            runs[index].withUnsafeMutableBufferPointer { $0.reverse() }
        }
        runs.withUnsafeMutableBufferPointer { $0.reverse() }
        self.runs = runs
    }

    /// No outputs.
    @inlinable
    public init() {
        runs = []
    }

    /// The next output, moved out; nil after the last.
    @inlinable
    public mutating func next() -> Output? {
        while let last = runs.indices.last {
            if let output = runs[last].popLast() { return output }
            runs.removeLast()
        }
        return nil
    }
}

extension OrderedOutputs: Sendable where Output: Sendable {}
