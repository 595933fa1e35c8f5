import PipelineLanguage

/// How much a build may fetch from the deployed site `previous:`/`--previous URL` names, and for
/// how long: a server that sends too much, or too slowly, fails the build (exit 69, nothing
/// published) rather than taking its memory or its time.
///
/// Sizes count the body as decoded (after `Content-Encoding: gzip`), so a small compressed body
/// cannot expand past them.
public struct PreviousFetchLimits: Sendable, Equatable {
    /// The largest `bundles/manifest.json` accepted: a manifest lists bundles, a few hundred
    /// bytes each.
    public static let manifestBytes = 4 << 20
    /// The largest bundle accepted when no budget says less.
    public static let bundleBytes = 256 << 20
    /// How long fetching the whole site may take unless set otherwise.
    public static let defaultDeadline = Duration.seconds(120)

    /// How long fetching the whole site (the manifest and every bundle) may take.
    public var deadline: Duration
    /// The budget of each bundle of the config whose budget fails the build: a bundle published
    /// under it cannot be larger.
    var bundleBudgets: [String: Int]

    /// The limits for a build of `config`, with `deadline` for the whole fetch.
    public init(config: PipelineConfig, deadline: Duration = defaultDeadline) {
        self.deadline = deadline
        var budgets: [String: Int] = [:]
        if config.budgets.mode == .fail {
            for bundle in config.bundles {
                if let limit = config.budgets.limit(for: bundle) { budgets[bundle.id] = limit.bytes }
            }
        }
        bundleBudgets = budgets
    }

    /// The largest body accepted for the bundle `id`: its budget, else ``bundleBytes``.
    func bundleBytes(id: String) -> Int {
        min(bundleBudgets[id] ?? Self.bundleBytes, Self.bundleBytes)
    }
}
