import Foundation
import SystemSupport

/// `body(0..<count)` computed beside the caller, each index on a thread of its own started at
/// once; ``results()`` waits for them and gives them in index order.
///
/// For work that overlaps with what the caller does meanwhile, such as gzip blocks compressing
/// while the caller encodes, hashes and writes what follows. Threads of its own rather
/// than Dispatch's pool: the pool adds a thread only a while after its threads are all busy, and
/// on a two-core machine a batch of such blocks ran on one core for the first half second of a build's
/// compression (bench/RESULTS.md, session 11). Starting a thread costs tens of microseconds:
/// give each index work of milliseconds or more. An index the system refuses a thread for (a
/// process limit reached) is computed by the caller at once.
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
            let work: @Sendable () -> Void = {
                shared.slots[index] = body(index)
                done.leave()
            }
            if !Self.start(work) { work() }
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

    /// Runs `work` on a new thread; false, having run nothing, when the system refuses one.
    private static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        #if os(Linux)
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
        #else
        // Foundation's threads say nothing of a refusal.
        Thread(block: work).start()
        return true
        #endif
    }
}

/// A thread's work, handed through `pthread_create`'s context pointer.
private final class Work: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
