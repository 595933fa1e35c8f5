import JSONCore

/// Size budgets (`budgets:` and a bundle's own `max_bundle_bytes:`): a bundle over its limit
/// fails the build before anything is published, or only warns with `mode: warn`.
///
/// Sizes are of the raw bundle (the `bytes` of the manifest), not of its gzip copy: the raw
/// size is what a client parses and stores in its cache, what clients without gzip download,
/// and it does not move with `gzip_level`.
public struct SizeBudget: Sendable, Equatable {
    /// What a bundle over its limit does to the build.
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// The build fails (nothing is published) and exits with its own status.
        case fail
        /// The build publishes and reports a warning.
        case warn
    }

    /// The limit for every bundle without its own, if any.
    public var maxBundleBytes: SizeLimit?
    /// The limit for every server-rendering snapshot (a page embeds or downloads each), if any.
    public var maxSnapshotBytes: SizeLimit?
    public var mode: Mode

    public init(maxBundleBytes: SizeLimit? = nil, mode: Mode = .fail) {
        self.maxBundleBytes = maxBundleBytes
        self.mode = mode
    }

    /// The limit that applies to `bundle`: its own, else the global one.
    public func limit(for bundle: BundleSpec) -> SizeLimit? {
        bundle.maxBytes ?? maxBundleBytes
    }

    /// The bundles larger than their limit, where `sizes[i]` is the raw size of `bundles[i]`.
    public func violations(of bundles: [BundleSpec], sizes: [Int]) -> [BudgetViolation] {
        zip(bundles, sizes).compactMap { bundle, size in
            guard let limit = limit(for: bundle), size > limit.bytes else { return nil }
            return BudgetViolation(bundle: bundle.id, bytes: size, limit: limit)
        }
    }

    /// Reads `budgets: {max_bundle_bytes: SIZE, mode: fail|warn}`.
    /// The keys of `budgets:`.
    static let keys = ["max_bundle_bytes", "max_snapshot_bytes", "mode"]

    static func parse(_ node: ConfigNode) throws(ConfigError) -> SizeBudget {
        let entry = try node.mapping(allowed: keys)
        var budget = SizeBudget()
        if let limit = entry["max_bundle_bytes"] { budget.maxBundleBytes = try SizeLimit.parse(limit) }
        if let limit = entry["max_snapshot_bytes"] { budget.maxSnapshotBytes = try SizeLimit.parse(limit) }
        if let modeNode = entry["mode"] {
            let text = try modeNode.string()
            guard let mode = Mode(rawValue: text) else {
                throw modeNode.error("budgets.mode must be one of \(Mode.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(text)\"")
            }
            budget.mode = mode
        }
        return budget
    }
}

/// A `max_bundle_bytes:` value and where it was set, so a violation can point at it.
public struct SizeLimit: Sendable, Equatable {
    public var bytes: Int
    public var location: SourceLocation?

    public init(bytes: Int, location: SourceLocation?) {
        self.bytes = bytes
        self.location = location
    }

    static func parse(_ node: ConfigNode) throws(ConfigError) -> SizeLimit {
        SizeLimit(bytes: try node.byteSize(), location: node.location)
    }
}

/// A bundle larger than its `max_bundle_bytes`, or one of its snapshots larger than `max_snapshot_bytes`.
public struct BudgetViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    public var bundle: String
    /// The snapshot over `max_snapshot_bytes` (a named query's name or a document's path), or
    /// nil for the bundle itself.
    public var snapshot: String?
    /// The raw size of the bundle.
    public var bytes: Int
    public var limit: Int
    /// Where the limit was set (`file:line:column`).
    public var setAt: String?

    public init(bundle: String, snapshot: String? = nil, bytes: Int, limit: SizeLimit) {
        self.bundle = bundle
        self.snapshot = snapshot
        self.bytes = bytes
        self.limit = limit.bytes
        self.setAt = limit.location.map(String.init(describing:))
    }

    public var description: String {
        if let snapshot {
            return "the snapshot of \(snapshot) (bundle \"\(bundle)\") is \(bytes) bytes, over max_snapshot_bytes of \(limit)\(setAt.map { " (set at \($0))" } ?? ""); "
                + "lower the query's limit, turn the bundle's snapshots off (snapshots: false), or raise the budget"
        }
        return "bundle \"\(bundle)\" is \(bytes) bytes, over its max_bundle_bytes of \(limit)\(setAt.map { " (set at \($0))" } ?? ""); "
            + "move some of its queries to another bundle, lower their limits, or raise the budget"
    }
}
