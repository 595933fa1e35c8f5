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

/// The result slots, shared by the workers; each slot is written by exactly one worker and read
/// only after `concurrentPerform` returns.
private struct SharedSlots<T>: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<T?>
}
