import SystemSupport

/// The process's limit on open descriptors (`RLIMIT_NOFILE`, what `ulimit -n` shows), which
/// bounds how many connections the server can hold.
///
/// Every connection is a descriptor, and one sending a large file holds a second (a `dup` of the
/// origin's open file) while it does. Past the soft limit `accept` fails with `EMFILE`, and a
/// client over it waits in the listen queue instead of getting the 503 the connection cap
/// promises. So the server raises the soft limit toward what its cap needs, up to the hard limit
/// (as nginx's `worker_rlimit_nofile` does), and lowers the cap to what the limit holds when
/// even the hard limit is lower.
struct OpenFileLimit: Sendable, Equatable {
    /// The limit in effect: opening more descriptors fails.
    var soft: Int
    /// The most the soft limit may be raised to without privileges.
    var hard: Int

    /// Descriptors kept for everything but connections: standard streams, the listener, the
    /// event loops' own, the files the origin keeps open, the `dup`s of files being sent, and
    /// the connections being turned away (each is accepted to be answered 503). A quarter of
    /// the limit, at most 256.
    var reserved: Int {
        min(256, soft / 4)
    }

    /// The most connections to hold at once when `wanted` are asked for: all of them when the
    /// soft limit leaves room for them besides ``reserved``, else what it leaves (at least 1).
    func connectionCap(wanting wanted: Int) -> Int {
        min(wanted, max(1, soft - reserved))
    }

    /// The soft limit that holds `connections`, each with a file being sent, besides
    /// ``reserved``: never lower than the current one, never above the hard limit.
    func raisedSoftLimit(toHold connections: Int) -> Int {
        min(hard, max(soft, 2 * connections + 256))
    }

    /// Raises the current process's soft limit to hold `connections` (see
    /// ``raisedSoftLimit(toHold:)``) and returns the limit in effect afterwards; nil when it
    /// cannot be read. When raising fails, the limit stays as it was.
    static func raiseCurrent(toHold connections: Int) -> OpenFileLimit? {
        var values = rlimit()
        guard getrlimit(resource, &values) == 0 else { return nil }
        var limit = OpenFileLimit(soft: clamped(values.rlim_cur), hard: clamped(values.rlim_max))
        let raised = limit.raisedSoftLimit(toHold: connections)
        if raised > limit.soft {
            values.rlim_cur = rlim_t(raised)
            if setrlimit(resource, &values) == 0 {
                limit.soft = raised
            }
        }
        return limit
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// `RLIM_INFINITY` and values beyond `Int` as `Int.max`.
    private static func clamped(_ value: rlim_t) -> Int {
        value >= rlim_t(Int.max) ? Int.max : Int(value)
    }
}
