import Dispatch

/// Frees a large value on a background thread, so that the thread done with it goes on at once.
///
/// A build's documents are a graph of a few million small allocations; freeing them takes a
/// quarter of a second per hundred thousand documents, which publishing need not wait for.
enum BackgroundRelease {
    static func release<Value: Sendable>(_ value: consuming Value) {
        let box = Box(value)
        DispatchQueue.global(qos: .utility).async { box.empty() }
    }

    /// Holds the only reference, so the value is freed where the box is emptied, never on the
    /// caller's thread (whichever thread dropped its last reference first).
    private final class Box<Contents: Sendable>: @unchecked Sendable {
        private var contents: Contents?

        init(_ contents: consuming Contents) {
            self.contents = contents
        }

        /// Called once, on the background thread.
        func empty() {
            contents = nil
        }
    }
}
