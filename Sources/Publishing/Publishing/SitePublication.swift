import Foundation
import PipelineLanguage

/// The publishing stage: puts a written site in place in the output directory, under the build's
/// lock, and lets old files go.
///
/// In order: every file the build will write is claimed in the ledger (``OwnedFiles``); the
/// loader, explorer and header files are written (``SiteExtras``); the bundles, snapshots,
/// manifest and state are published (``SitePublisher``); the stable URLs are put in place; and
/// the retention policy is applied (``RetentionSweep``). A dry run reads only, and says what
/// would change. A build that finds nothing changed only puts the extras back and sweeps
/// (``refresh(_:)``).
struct SitePublication {
    let outputDirectory: String
    let config: PipelineConfig

    /// What publishing did (or, in a dry run, would do).
    struct Published {
        var outcome: SitePublisher.Outcome
        var retention: RetentionSweep.Result
        /// Where the hosts will differ from the site's header rules, a ledger that could not be
        /// read, and what the retention sweep could not do.
        var warnings: [String]
    }

    /// Publishes `files` and `manifest`, with `history` as the state for the next build, over the
    /// site whose manifest listed `previous`. `checkpoint` is called between the steps.
    func publish(
        files: [SitePublisher.File], manifest: Manifest, history: SiteHistory, replacing previous: [Manifest.Entry], dryRun: Bool,
        checkpoint: (BuildCheckpoint) -> Void
    ) throws(PublishError) -> Published {
        let manifestData = manifest.encoded()
        let publisher = SitePublisher(outputDirectory: outputDirectory)
        let extras = SiteExtras(bundles: manifest.bundles, config: config)
        var (ledger, problem) = RetentionLedger.load(path: RetentionLedger.path(in: outputDirectory))
        let outcome: SitePublisher.Outcome
        if dryRun {
            outcome = publisher.changes(files: files, manifest: manifestData, history: history)
        } else {
            let owned = try ledger.claim(
                extras.claims + files.map { OwnedFiles.Target(path: "bundles/\($0.name)", content: $0.content) }
                    + [OwnedFiles.Target(path: Manifest.relativePath, content: .chunks([Array(manifestData)]))],
                outputDirectory: outputDirectory)
            try extras.writeBeforePublishing(into: outputDirectory)
            outcome = try publisher.publish(files: files, manifest: manifestData, history: history, checkpoint: checkpoint)
            try extras.writeAfterPublishing(into: outputDirectory, replacing: previous, owned: owned)
            checkpoint(.published)
        }
        let retention = sweep(manifest: manifest, bytes: manifestData, ledger: ledger, planned: dryRun ? outcome.written : [], dryRun: dryRun)
        return Published(outcome: outcome, retention: retention, warnings: extras.warnings + (problem.map { [$0] } ?? []) + retention.warnings)
    }

    /// What a build that found nothing changed still does to the site `published` (its manifest
    /// and the manifest's bytes): puts back the extras that are missing or changed, and sweeps.
    func refresh(_ published: (manifest: Manifest, bytes: Data)) throws(PublishError) -> (retention: RetentionSweep.Result, warnings: [String]) {
        let extras = SiteExtras(bundles: published.manifest.bundles, config: config)
        var (ledger, problem) = RetentionLedger.load(path: RetentionLedger.path(in: outputDirectory))
        let owned = try ledger.claim(extras.claims, outputDirectory: outputDirectory)
        try extras.writeBeforePublishing(into: outputDirectory)
        try extras.writeAfterPublishing(into: outputDirectory, replacing: published.manifest.bundles, owned: owned)
        let retention = sweep(manifest: published.manifest, bytes: published.bytes, ledger: ledger, planned: [], dryRun: false)
        return (retention, extras.warnings + (problem.map { [$0] } ?? []) + retention.warnings)
    }

    private func sweep(manifest: Manifest, bytes: Data, ledger: RetentionLedger, planned: [String], dryRun: Bool) -> RetentionSweep.Result {
        RetentionSweep(outputDirectory: outputDirectory, policy: config.retention).run(
            manifest: bytes, referenced: manifest.referencedFiles, ledger: ledger, planned: planned, dryRun: dryRun, now: Date())
    }
}
