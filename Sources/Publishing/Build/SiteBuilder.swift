import BundleFormat
import FirestoreModel
import Foundation
import QueryEngine

/// Builds the site a `pipeline.yml` describes: reads the exports, runs the named queries,
/// writes the content-hashed bundles and their gzip copies, then the manifest — atomically.
public struct SiteBuilder: Sendable {
    public let config: PipelineConfig
    /// Where to publish; the config's `output:` (relative to the config) unless overridden.
    public let outputDirectory: String

    public init(config: PipelineConfig, outputDirectory: String? = nil) {
        self.config = config
        self.outputDirectory = outputDirectory ?? config.outputDirectory
    }

    /// Runs the build. On any error nothing is published and the previous site stays as it was.
    public func build(progress: (BuildEvent) -> Void = { _ in }) throws(BuildError) -> BuildReport {
        let started = ContinuousClock.now
        let inputs = try LoadedInputs.load(config, progress: progress)
        let resolved = try inputs.resolve(config)

        var built: [BuiltBundle] = []
        for (index, spec) in resolved.bundles.enumerated() {
            progress(.buildingBundle(id: spec.id, index: index, count: resolved.bundles.count))
            built.append(try BuiltBundle.build(spec, store: inputs.store, snapshotTime: inputs.snapshotTime, gzipLevel: config.gzipLevel, audience: config.clients.bundleAudience))
        }

        progress(.publishing)
        let manifest = Manifest(
            snapshotTime: inputs.snapshotTime.rfc3339, project: config.database.project, database: config.database.database,
            clients: config.clients.configNames,
            bundles: built.map { bundle in
                Manifest.Entry(
                    id: bundle.id, url: "bundles/\(bundle.fileName)", gzipURL: "bundles/\(bundle.gzipFileName)",
                    sha256: bundle.sha256, bytes: bundle.encoded.byteCount, gzipBytes: bundle.gzip.count,
                    documents: Int(bundle.encoded.metadata.totalDocuments), namedQueries: bundle.namedQueries)
            })
        let files = built.flatMap { bundle in
            [
                SitePublisher.File(name: bundle.fileName, chunks: [bundle.encoded.metadataElement] + bundle.encoded.body),
                SitePublisher.File(name: bundle.gzipFileName, chunks: [bundle.gzip]),
            ]
        }
        let outcome: SitePublisher.Outcome
        do throws(PublishError) {
            outcome = try SitePublisher(outputDirectory: outputDirectory).publish(files: files, manifest: manifest.encoded())
        } catch {
            throw .publish(error)
        }

        let elapsed = ContinuousClock.now - started
        return BuildReport(
            snapshotTime: inputs.snapshotTime.rfc3339, inputFiles: inputs.fileCount, inputBytes: inputs.inputBytes,
            inputDocuments: inputs.store.count,
            bundles: built.map { bundle in
                BuildReport.Bundle(
                    id: bundle.id, file: bundle.fileName, documents: Int(bundle.encoded.metadata.totalDocuments),
                    namedQueries: bundle.namedQueries, bytes: bundle.encoded.byteCount, gzipBytes: bundle.gzip.count,
                    unchanged: outcome.unchanged.contains(bundle.fileName))
            },
            manifestChanged: outcome.manifestChanged, outputDirectory: outputDirectory,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
