/// How long a bundle keeps telling returning clients about documents it shipped before
/// (`leavers:`): the current version of a document that left the bundle and changed since, or a
/// missing-document marker for one that was deleted.
///
/// The horizon is measured in snapshot time (the time of the data, never the wall clock), so a
/// build is a function of its inputs, config and previous state. A client that last loaded a
/// bundle published more than `keep` before the current snapshot may keep stale copies of
/// documents that left it (README, "Returning clients").
public struct LeaverPolicy: Sendable, Equatable {
    /// The horizon, in seconds of snapshot time.
    public var keep: Int64

    public init(keep: Int64) {
        self.keep = keep
    }

    /// 30 days: apps that keep their cache (IndexedDB on the web, the default on Android and
    /// iOS) and open within a month see exactly what a new install sees.
    public static let `default` = LeaverPolicy(keep: 30 * 86_400)

    /// Reads `leavers: {keep: DURATION}`; a missing key keeps its default.
    /// The keys of `leavers:`.
    static let keys = ["keep"]

    static func parse(_ node: ConfigNode) throws(ConfigError) -> LeaverPolicy {
        let entry = try node.mapping(allowed: keys)
        var policy = LeaverPolicy.default
        if let keep = entry["keep"] { policy.keep = try keep.duration() }
        return policy
    }
}
