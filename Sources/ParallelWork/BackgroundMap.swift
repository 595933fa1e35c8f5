import Foundation

/// `body(0..<count)` computed beside the caller, each index on a thread of its own started at
/// once; ``results()`` waits for them and gives them in index order.
///
/// For work that overlaps with what the caller does meanwhile, such as a batch of gzip blocks
/// compressing while the caller reads, hashes and writes what follows. Threads of its own rather
/// than Dispatch's pool: the pool adds a thread only a while after its threads are all busy, and
/// on a two-core machine such a batch ran on one core for the first half second of a build's
/// compression (bench/RESULTS.md, session 11). Starting a thread costs tens of microseconds:
/// give each index work of milliseconds or more.
public final class BackgroundMap<T: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let shared: SharedSlots<T>

    /// Starts `count` threads, thread `i` computing `body(i)`.
    public init(count: Int, _ body: @escaping @Sendable (Int) -> T) {
        let slots = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        let shared = SharedSlots(slots: slots)
        self.shared = shared
        for index in 0..<count {
            done.enter()
            let done = done
            Thread {
                shared.slots[index] = body(index)
                done.leave()
            }.start()
        }
    }

    deinit {
        done.wait()
        _ = shared.slots.deinitialize()
        shared.slots.deallocate()
    }

    /// The results in index order, once every thread has finished.
    public func results() -> [T] {
        done.wait()
        return shared.slots.map { $0! }
    }
}
