/// How long a hashed bundle file stays after the manifest stops referencing it (`retention:`),
/// so that clients and CDN edges holding an older manifest can still fetch what it lists.
///
/// A file is deleted once it has been left out of `builds` published manifests in a row *and*
/// `minAge` has passed since the first of them was published. A file the current manifest
/// references is never deleted.
public struct RetentionPolicy: Sendable, Equatable {
    /// How many more manifests a file outlives the last one that referenced it.
    public var builds: Int
    /// The least time, in seconds, between a file leaving the manifest and its deletion.
    public var minAge: Int64

    public init(builds: Int, minAge: Int64) {
        self.builds = builds
        self.minAge = minAge
    }

    /// Two builds and one hour: ten times the default manifest lifetime in caches
    /// (`max-age=60` in browsers plus `s-maxage=300` at the edge).
    public static let `default` = RetentionPolicy(builds: 2, minAge: 3_600)

    /// Reads `retention: {builds: N, min_age: DURATION}`; a missing key keeps its default.
    /// The keys of `retention:`.
    static let keys = ["builds", "min_age"]

    static func parse(_ node: ConfigNode) throws(ConfigError) -> RetentionPolicy {
        let entry = try node.mapping(allowed: keys)
        var policy = RetentionPolicy.default
        if let builds = entry["builds"] { policy.builds = try builds.int(in: 0...1_000_000) }
        if let minAge = entry["min_age"] { policy.minAge = try minAge.duration() }
        return policy
    }
}
