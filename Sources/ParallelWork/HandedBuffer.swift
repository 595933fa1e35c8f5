/// A byte buffer handed from one thread to another and back, one thread holding it at a time, so
/// that a large buffer is used again rather than fresh pages being mapped (and faulted in) for
/// every use: page faults were 7 % of a build's CPU time, most of them in buffers of a
/// megabyte or more taken once and freed.
///
/// `@unchecked Sendable`: the hand-overs are the caller's (a ``parallelMap(count:threads:_:)``'s
/// start and return, a ``BackgroundMap``'s start and ``BackgroundMap/results()``), which order
/// each use after the one before.
public final class HandedBuffer: @unchecked Sendable {
    /// The buffer, while no thread has taken it.
    public var bytes: [UInt8] = []

    public init() {}

    /// The buffer, emptied but keeping its storage, leaving this one empty: the taker holds its
    /// only reference, so that writing into it allocates nothing until it outgrows its capacity.
    public func take() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}
