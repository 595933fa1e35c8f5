import FirestoreModel
import PipelineLanguage

/// The writing stage's outcome: every bundle of a plan encoded, hashed and gzipped into a
/// scratch directory (``BuiltBundle``), with its server-rendering snapshots (``BuiltSnapshot``),
/// the size budgets checked, and the manifest that lists them, all ready to publish.
struct WrittenSite {
    var bundles: [BuiltBundle]
    /// Each bundle's snapshots, by bundle id, in bundle order.
    var snapshots: [(bundle: String, snapshots: [BuiltSnapshot])]
    /// The bundles and snapshots over their budgets (a warning each, unless the budgets' mode fails the build).
    var violations: [BudgetViolation]

    /// Writes the bundles `specs` describes, as `plan` ships them, each with the queries and
    /// field policy of its selection in `selected`, its documents' fields from `setAside`, into
    /// `scratchDirectory`. Each bundle's entries go with it once it is built, out of the plan.
    /// Throws ``BuildError/budgetExceeded(_:)`` when a budget is exceeded under `mode: fail`.
    static func write(
        _ plan: inout ShipmentPlan, specs: [BundleSpec], selected: [(policy: FieldPolicy, queries: [BundleSelection.NamedQuery])],
        setAside: SetAsideDocuments, config: PipelineConfig, into scratchDirectory: String, progress: (BuildEvent) -> Void
    ) throws(BuildError) -> WrittenSite {
        var bundles: [BuiltBundle] = []
        var snapshots: [(bundle: String, snapshots: [BuiltSnapshot])] = []
        for (index, (policy, queries)) in selected.enumerated() {
            let planned = plan.bundles[index]
            plan.bundles[index].entries = []
            progress(.buildingBundle(id: planned.id, index: index, count: plan.bundles.count))
            if specs[index].snapshots {
                snapshots.append((planned.id, try BuiltSnapshot.build(
                    bundle: planned.id, entries: planned.entries, queries: queries, listed: specs[index].documents, setAside: setAside,
                    policy: policy, siteTime: plan.siteTime, audience: config.clients.bundleAudience, scratchDirectory: scratchDirectory)))
            }
            bundles.append(try BuiltBundle.build(
                consume planned, queries: queries, setAside: setAside, policy: policy, gzipLevel: config.gzipLevel,
                audience: config.clients.bundleAudience, scratchDirectory: scratchDirectory, progress: progress))
        }
        let violations = config.budgets.violations(of: specs, sizes: bundles.map(\.byteCount))
            + BuiltSnapshot.budgetViolations(snapshots, budgets: config.budgets)
        if config.budgets.mode == .fail, !violations.isEmpty { throw .budgetExceeded(violations) }
        return WrittenSite(bundles: bundles, snapshots: snapshots, violations: violations)
    }

    /// The manifest of these bundles (`specs`, in the same order) and their snapshots, for a site
    /// built from inputs at `snapshotTime` and dated `siteTime`.
    func manifest(specs: [BundleSpec], config: PipelineConfig, snapshotTime: Timestamp, siteTime: Timestamp) -> Manifest {
        var manifest = Manifest(
            snapshotTime: snapshotTime.rfc3339, project: config.database.project, database: config.database.database,
            clients: config.clients.configNames,
            bundles: zip(specs, bundles).map { spec, bundle in
                Manifest.Entry(
                    id: bundle.id, url: "bundles/\(bundle.fileName)", gzipURL: "bundles/\(bundle.gzipFileName)",
                    sha256: bundle.sha256, createTime: bundle.createTime.rfc3339, bytes: bundle.byteCount, gzipBytes: bundle.gzipByteCount,
                    documents: bundle.documentCount, results: bundle.documentCount - bundle.leavers - bundle.missing,
                    namedQueries: bundle.namedQueries, fanOut: spec.fanOut, extensionSpec: spec.extensionSpec)
            },
            siteTime: siteTime.rfc3339, horizonStart: snapshotTime.advanced(bySeconds: -config.leavers.keep).rfc3339)
        for (bundle, written) in snapshots { manifest.addSnapshots(written, of: bundle) }
        return manifest
    }
}
