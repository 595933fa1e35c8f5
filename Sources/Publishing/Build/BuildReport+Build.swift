import FirestoreModel
import Foundation
import Gzip
import PipelineLanguage

extension BuildReport {
    /// What a build read: its snapshot time and how much it read.
    struct InputsRead {
        var snapshotTime: Timestamp
        var files: Int
        var bytes: Int
        var documents: Int

        init(_ inputs: borrowing LoadedInputs) {
            (snapshotTime, files, bytes, documents) = (inputs.snapshotTime, inputs.fileCount, inputs.inputBytes, inputs.documentCount)
        }
    }

    /// The report of a build that read `inputs`, wrote `written` (the bundles of `specs`, in
    /// order, under the site time `siteTime`) and published it over the site whose manifest
    /// listed `previous` (`published`); `budgets` are the limits the bundles were checked against.
    init(
        inputs: InputsRead, previousState: String, specs: [BundleSpec], budgets: SizeBudget, written: WrittenSite, siteTime: Timestamp, previous: [Manifest.Entry],
        published: SitePublication.Published, checks: (dataWarnings: [DataWarning], exposure: [ExposureFinding]), warnings: [String],
        dryRun: Bool, outputDirectory: String, timings: Timings
    ) {
        let previousHashes = Dictionary(previous.map { ($0.id, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        self.init(
            snapshotTime: inputs.snapshotTime.rfc3339, siteTime: siteTime.rfc3339, previousState: previousState,
            inputFiles: inputs.files, inputBytes: inputs.bytes, inputDocuments: inputs.documents,
            bundles: zip(specs, written.bundles).map { spec, bundle in
                Bundle(
                    id: bundle.id, file: bundle.fileName, createTime: bundle.createTime.rfc3339, documents: bundle.documentCount,
                    leavers: bundle.leavers, missing: bundle.missing,
                    namedQueries: bundle.namedQueries, bytes: bundle.byteCount, gzipBytes: bundle.gzipByteCount,
                    status: previousHashes[bundle.id].map { $0 == bundle.sha256 ? .unchanged : .changed } ?? .new,
                    maxBytes: budgets.limit(for: spec)?.bytes)
            },
            removedBundles: previous.map(\.id).filter { id in !written.bundles.contains { $0.id == id } },
            manifestChanged: published.outcome.manifestChanged,
            retention: Retention(retained: published.retention.retained, deleted: published.retention.deleted),
            budgetWarnings: written.violations, exposure: checks.exposure, dataWarnings: checks.dataWarnings, warnings: warnings,
            dryRun: dryRun, outputDirectory: outputDirectory, seconds: timings.read + timings.bundles + timings.publish, timings: timings,
            compressor: DeflateEngine.fastest.description)
    }

    /// The last report `last`, for a build that found nothing changed: every bundle unchanged,
    /// with what retention did now, `warnings`, and the time this build took.
    init(upToDate last: BuildReport, retention: RetentionSweep.Result, warnings: [String], seconds: Double) {
        self = last
        bundles = last.bundles.map { bundle in
            var bundle = bundle
            bundle.status = .unchanged
            return bundle
        }
        removedBundles = []
        manifestChanged = false
        upToDate = true
        self.retention = Retention(retained: retention.retained, deleted: retention.deleted)
        self.warnings = warnings
        self.seconds = seconds
        timings = Timings(read: seconds, bundles: 0, publish: 0)
    }
}
