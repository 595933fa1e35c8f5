import BundleFormat
import FirestoreModel
import Foundation
import Gzip
import Hosting
import PipelineLanguage
import QueryEngine

/// Builds the site a `pipeline.yml` describes: reads the exports, runs the named queries,
/// writes the content-hashed bundles and their gzip copies, then the manifest — atomically,
/// under the output's lock — and finally deletes old files the retention policy lets go.
///
/// A build whose inputs, config, binary and published site are as the last build left them
/// (their ``BuildFingerprint`` matches the one recorded then) builds nothing: it answers with the
/// last report, marked ``BuildReport/upToDate``, after the retention sweep and putting back
/// missing header files, the loader or the explorer, as a full build would.
public struct SiteBuilder: Sendable {
    public let config: PipelineConfig
    /// Where to publish; the config's `output:` (relative to the config) unless overridden.
    public let outputDirectory: String
    /// How long fetching the deployed site `previous:` names may take, all of it.
    public let previousDeadline: Duration
    /// Refuse to publish when nothing is known of earlier publishes (no state, nothing published
    /// in the output, no `previous:`), rather than build with the wall clock and a warning: the
    /// CLI sets it when the environment variable `CI` is set, where every build is a fresh
    /// checkout and a forgotten `previous:` would go unnoticed (returning-clients.md, "The state").
    public var refusesUnknownPrevious = false

    public init(config: PipelineConfig, outputDirectory: String? = nil, previousDeadline: Duration = PreviousFetchLimits.defaultDeadline) {
        self.config = config
        self.outputDirectory = outputDirectory ?? config.outputDirectory
        self.previousDeadline = previousDeadline
    }

    /// Runs the build. On any error nothing is published and the previous site stays as it was.
    ///
    /// With `dryRun` every bundle is still built and checked against its budget, but nothing is
    /// written, not even the lock: the report says what a build would change. `evenIfUpToDate`
    /// builds when nothing changed too.
    ///
    /// `inputs` says where the documents come from: the config's inputs, or the partials the
    /// map tasks of a sharded build wrote (``map(_:into:progress:)``), merged into the same site
    /// byte for byte. A merge is never skipped as up to date: its inputs are elsewhere.
    public func build(
        dryRun: Bool = false, evenIfUpToDate: Bool = false, inputs: BuildInputs = .exports, progress: (BuildEvent) -> Void = { _ in }
    ) throws(BuildError) -> BuildReport {
        guard !dryRun else { return try run(dryRun: true, checkUpToDate: false, inputs: inputs, takenOverFrom: nil, progress: progress) }
        return try BuildLock.withLock(outputDirectory: outputDirectory) { holder throws(BuildError) in
            progress(.checkpoint(.locked))
            return try run(dryRun: false, checkUpToDate: !evenIfUpToDate, inputs: inputs, takenOverFrom: holder, progress: progress)
        }
    }

    /// Runs the map task of `shard` of a sharded build: reads its slice of the inputs and writes
    /// its partial into `directory`, for a ``build(dryRun:evenIfUpToDate:inputs:progress:)``
    /// with ``BuildInputs/partials(directories:)`` to merge. Publishes nothing and takes no lock.
    ///
    /// The partial holds the candidates whole (``CandidateRules``), judged against the previous
    /// state of the output directory (or `previous:`) as the merge will read it: the merge
    /// refuses a partial judged against another. A time relative to the snapshot counts as
    /// unknown here even with `snapshot_time:` (the merge may be given another).
    public func map(_ shard: Shard, into directory: String, progress: (BuildEvent) -> Void = { _ in }) throws(BuildError) -> MapReport {
        let clock = ContinuousClock()
        let started = clock.now
        let layout = try InputLayout.expand(config)
        // Candidates are judged against the previous state the merge will read (it checks that).
        var judged = config
        judged.snapshotTime = nil
        let previous = try previousState(publishedManifest: SitePublisher(outputDirectory: outputDirectory).publishedManifest().published.map(\.bytes), repair: false)
        var writer = try PartialWriter(shard: shard, directory: directory, config: config, candidates: try CandidateRules(judged, previous: previous.history))
        let read = try Partial.readSlice(shard, of: layout, config: config, decoding: config.fieldsRead, progress: progress) { exported, piece throws(BuildError) in
            try writer.append(exported, piece: piece)
        }
        progress(.writingPartial)
        let documents = writer.count
        let header = try writer.finish(read, layout: layout)
        return MapReport(shard: shard.index, shards: shard.count, documents: documents, partial: header, seconds: (clock.now - started).seconds)
    }

    /// What was published before (``PreviousState/find(outputDirectory:publishedManifest:previous:fetchLimits:repair:now:)``):
    /// the state in the output directory, checked against the published manifest's bytes, or what
    /// `previous:` names; `repair` lets a damaged state be set right.
    private func previousState(publishedManifest: Data?, repair: Bool) throws(BuildError) -> PreviousState {
        let state: PreviousState
        do throws(PreviousSiteFailure) {
            state = try PreviousState.find(
                outputDirectory: outputDirectory, publishedManifest: publishedManifest, previous: config.previous,
                fetchLimits: PreviousFetchLimits(config: config, deadline: previousDeadline), repair: repair, now: Date())
        } catch {
            throw .previous(error)
        }
        if refusesUnknownPrevious, state.unknownAt != nil { throw .config(ConfigError(Self.unknownPreviousMessage(outputDirectory), at: nil)) }
        return state
    }

    /// Why a build under CI with nothing known of earlier publishes refuses to publish.
    static func unknownPreviousMessage(_ outputDirectory: String) -> String {
        "nothing is known of earlier publishes: \(outputDirectory) holds no \(SiteHistory.fileName) nor a published site, previous: is not set, "
            + "and CI is set, where every build starts from a fresh checkout: a build that forgets what was published leaves deleted and unpublished "
            + "documents in returning apps. Set previous: in pipeline.yml to the deployed site's URL (or to a directory holding the last output, "
            + "restored from the CI cache), or pass --previous none for the site's first publish; recipes: docs/cron.md#recipes-site-builds-and-schedules"
    }

    private func run(
        dryRun: Bool, checkUpToDate: Bool, inputs source: BuildInputs, takenOverFrom holder: BuildLock.Holder?, progress: (BuildEvent) -> Void
    ) throws(BuildError) -> BuildReport {
        let clock = ContinuousClock()
        let started = clock.now
        let publisher = SitePublisher(outputDirectory: outputDirectory)
        var warnings: [String] = []
        if !dryRun {
            let leftovers = publisher.removeLeftoverStaging()
            if let holder {
                let cleaned = leftovers.isEmpty ? "" : "; removed its staging directory \(leftovers.joined(separator: ", "))"
                warnings.append("took over the lock of a build that did not finish (\(holder))\(cleaned)")
            }
        }

        // Hashed before reading: a change while the build runs shows at the next one.
        var sources: String?
        if !dryRun, case .exports = source {
            progress(.checkingForChanges)
            sources = BuildFingerprint.sources(of: config, outputDirectory: outputDirectory)
        }
        if checkUpToDate, let sources, let record = BuildRecord.read(outputDirectory: outputDirectory),
            record.fingerprint == BuildFingerprint(sources: sources, site: BuildFingerprint.site(outputDirectory: outputDirectory))
        {
            return try upToDate(record.report, warnings: warnings, started: started, clock: clock)
        }

        // What was published before, read first: the memory its state takes to decode is then
        // there for the documents (16 of the 171 MiB a rebuild of 100k documents peaked at), and
        // a previous site that cannot be read fails the build before its inputs are read.
        let (published, problem) = publisher.publishedManifest()
        warnings += problem.map { [$0] } ?? []
        let previous = try previousState(publishedManifest: published.map(\.bytes), repair: !dryRun)

        // The documents that can ship are set aside where the bundles are staged: beside the site,
        // on its disk.
        let setAside = dryRun ? FileManager.default.temporaryDirectory.path : outputDirectory
        let rules = try CandidateRules(config, previous: previous.history)
        var inputs: LoadedInputs
        switch source {
        case .exports:
            inputs = try LoadedInputs.load(config, candidates: rules, in: setAside, progress: progress)
        case .partials(let directories):
            let (documents, exportTimes, files, bytes) = try PartialFiles.read(from: directories, config: config, candidates: rules, in: setAside, progress: progress)
            inputs = try LoadedInputs(documents: consume documents, exportTimes: exportTimes, files: files, bytes: bytes, config: config, progress: progress)
        }
        let resolved = try inputs.resolve(config)
        warnings += previous.warnings(outputDirectory: outputDirectory, snapshotTime: inputs.snapshotTime)
        let read = clock.now

        // The config against the data: fields no document has, values of types a field never
        // holds, queries with no result.
        var dataWarnings = inputs.census.map { DataCheck.warnings(resolved, census: $0) } ?? []
        progress(.planning)
        let selections = try BundleSelection.select(resolved.bundles, store: inputs.store)
        dataWarnings += DataCheck.emptyQueries(
            resolved,
            results: Dictionary(selections.map { ($0.id, Dictionary($0.namedQueries.map { ($0.name, $0.results) }, uniquingKeysWith: { first, _ in first })) }, uniquingKeysWith: { first, _ in first }),
            earlier: dataWarnings)
        if config.warnings == .error, !dataWarnings.isEmpty { throw .dataCheck(dataWarnings) }
        warnings = dataWarnings.map(\.description) + resolved.extensionNotes + warnings
        // The plan takes the selected documents over: of the selections, the bundles need only
        // their queries and field policies.
        let bundleQueries = selections.map { (policy: $0.fieldPolicy, queries: $0.namedQueries) }
        let policies = Dictionary(uniqueKeysWithValues: selections.map { ($0.id, $0.fieldPolicy) })
        var plan = try ShipmentPlanner(
            previous: previous.history, snapshotTime: inputs.snapshotTime, leavers: config.leavers,
            floorWithoutHistory: previous.floor(snapshotTime: inputs.snapshotTime)
        ).plan(consume selections, store: inputs.store, setAside: inputs.setAside)
        let exposure = try ExposureScan.findings(in: plan, policies: policies, setAside: inputs.setAside)
        if config.exposure.mode == .fail, !exposure.isEmpty { throw .exposure(exposure) }
        warnings += exposure.map(\.description)

        let scratch: String
        do throws(PublishError) {
            scratch = try publisher.makeScratchDirectory(dryRun: dryRun)
        } catch {
            throw .publish(error)
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let written = try WrittenSite.write(
            &plan, specs: resolved.bundles, selected: bundleQueries, setAside: inputs.setAside, config: config, into: scratch, progress: progress)
        warnings += written.violations.map(\.description)
        let bundlesBuilt = clock.now

        // Publishing needs none of the documents: another core frees them meanwhile (a hundred
        // thousand documents take a quarter of a second to free).
        let inputsRead = (snapshotTime: inputs.snapshotTime, files: inputs.fileCount, bytes: inputs.inputBytes, documents: inputs.documentCount)
        let (siteTime, history, previousSource) = (plan.siteTime, plan.history, previous.source)
        BackgroundRelease.release((consume inputs, consume plan, consume previous))

        progress(.publishing)
        let manifest = written.manifest(specs: resolved.bundles, config: config, snapshotTime: inputsRead.snapshotTime, siteTime: siteTime)
        let manifestData = manifest.encoded()
        let files = written.siteFiles
        // The same header policy, for production hosts. Warnings about the built-in rules are left
        // out: they concern names bundlepress never writes (README, "Deploying").
        let stable = StableBundleURLs(manifest: manifest.bundles)
        let hosting = HostingFiles(building: config, stableURLs: stable)
        warnings += hosting.warnings.filter { !($0.rule?.hasPrefix("built-in ") ?? false) }.map(\.description)
        let outcome: SitePublisher.Outcome
        if dryRun {
            outcome = publisher.changes(files: files, manifest: manifestData, history: history)
        } else {
            do throws(PublishError) {
                let (owned, ledgerProblem) = try RetentionLedger.claim(
                    claims(hosting: hosting) + stable.targets
                        + files.map { OwnedFiles.Target(path: "bundles/\($0.name)", content: $0.content) }
                        + [OwnedFiles.Target(path: Manifest.relativePath, content: .chunks([Array(manifestData)]))],
                    outputDirectory: outputDirectory)
                try SiteAssets.write(explorer: config.explorer, into: outputDirectory)
                _ = try hosting.write(into: outputDirectory)
                outcome = try publisher.publish(files: files, manifest: manifestData, history: history) { progress(.checkpoint($0)) }
                try stable.write(into: outputDirectory, replacing: published?.manifest.bundles ?? [], owned: owned)
                warnings += ledgerProblem.map { [$0] } ?? []
            } catch {
                throw .publish(error)
            }
            progress(.checkpoint(.published))
        }
        // The state is written: another core frees it (a hundred thousand documents' versions).
        BackgroundRelease.release(consume history)
        let retention = RetentionSweep(outputDirectory: outputDirectory, policy: config.retention).run(
            manifest: manifestData, referenced: Set(files.map(\.name)), planned: dryRun ? outcome.written : [], dryRun: dryRun, now: Date())
        warnings += retention.warnings
        let finished = clock.now

        let previousHashes = Dictionary((published?.manifest.bundles ?? []).map { ($0.id, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        var report = BuildReport(
            snapshotTime: inputsRead.snapshotTime.rfc3339, siteTime: siteTime.rfc3339, previousState: previousSource,
            inputFiles: inputsRead.files, inputBytes: inputsRead.bytes, inputDocuments: inputsRead.documents,
            bundles: zip(resolved.bundles, written.bundles).map { spec, bundle in
                BuildReport.Bundle(
                    id: bundle.id, file: bundle.fileName, createTime: bundle.createTime.rfc3339, documents: bundle.documentCount,
                    leavers: bundle.leavers, missing: bundle.missing,
                    namedQueries: bundle.namedQueries, bytes: bundle.byteCount, gzipBytes: bundle.gzipByteCount,
                    status: previousHashes[bundle.id].map { $0 == bundle.sha256 ? .unchanged : .changed } ?? .new,
                    maxBytes: config.budgets.limit(for: spec)?.bytes)
            },
            removedBundles: (published?.manifest.bundles ?? []).map(\.id).filter { id in !written.bundles.contains { $0.id == id } },
            manifestChanged: outcome.manifestChanged,
            retention: BuildReport.Retention(retained: retention.retained, deleted: retention.deleted),
            budgetWarnings: written.violations, exposure: exposure, dataWarnings: dataWarnings, warnings: warnings, dryRun: dryRun, outputDirectory: outputDirectory,
            seconds: (finished - started).seconds,
            timings: BuildReport.Timings(read: (read - started).seconds, bundles: (bundlesBuilt - read).seconds, publish: (finished - bundlesBuilt).seconds),
            compressor: DeflateEngine.fastest.description)
        if let sources {
            do throws(PublishError) {
                try BuildRecord(fingerprint: BuildFingerprint(sources: sources, site: BuildFingerprint.site(outputDirectory: outputDirectory)), report: report)
                    .write(outputDirectory: outputDirectory)
            } catch {
                // The site is published; only the next build's shortcut is lost.
                report.warnings.append("\(error); the next build runs in full even if nothing changes")
            }
        }
        return report
    }

    /// The files a build writes besides the bundles, snapshots and manifest: the loader, the
    /// explorer page when `explorer:` asks for it, and the header files but `_headers` (whose
    /// site rules stay: ``MarkedBlock``), to claim before writing them (``OwnedFiles``).
    private func claims(hosting: HostingFiles) -> [OwnedFiles.Target] {
        SiteAssets.outputFiles(explorer: config.explorer).map { OwnedFiles.Target(path: $0.path, content: .chunks([$0.bytes])) }
            + hosting.files.filter { !$0.isShared }.map { OwnedFiles.Target(path: $0.path, content: .chunks([$0.bytes])) }
    }

    /// The answer of a build that found nothing changed: the last report with every bundle
    /// unchanged, after what a full build would still do (retention, missing header files and
    /// explorer assets put back).
    private func upToDate(_ last: BuildReport, warnings: [String], started: ContinuousClock.Instant, clock: ContinuousClock) throws(BuildError) -> BuildReport {
        let publisher = SitePublisher(outputDirectory: outputDirectory)
        guard let published = publisher.publishedManifest().published else {
            throw .publish(PublishError(path: outputDirectory, message: "the manifest disappeared while checking it"))
        }
        let stable = StableBundleURLs(manifest: published.manifest.bundles)
        let hosting = HostingFiles(building: config, stableURLs: stable)
        let ledgerProblem: String?
        do throws(PublishError) {
            ledgerProblem = try RetentionLedger.claim(claims(hosting: hosting), outputDirectory: outputDirectory).problem
            try SiteAssets.write(explorer: config.explorer, into: outputDirectory)
            _ = try hosting.write(into: outputDirectory)
            try stable.writeRedirects(into: outputDirectory)
        } catch {
            throw .publish(error)
        }
        let referenced = Set(published.manifest.bundles.flatMap { [$0.url, $0.gzipURL] }.map { ($0 as NSString).lastPathComponent })
            .union(published.manifest.snapshotNames)
        let retention = RetentionSweep(outputDirectory: outputDirectory, policy: config.retention).run(
            manifest: published.bytes, referenced: referenced, planned: [], dryRun: false, now: Date())
        var report = last
        report.bundles = last.bundles.map { bundle in
            var bundle = bundle
            bundle.status = .unchanged
            return bundle
        }
        report.removedBundles = []
        report.manifestChanged = false
        report.upToDate = true
        report.retention = BuildReport.Retention(retained: retention.retained, deleted: retention.deleted)
        // What the data and the config still say (the lock, the previous state and retention
        // speak of the run that wrote them, and are said anew).
        report.warnings = warnings + last.dataWarnings.map(\.description) + last.exposure.map(\.description) + last.budgetWarnings.map(\.description)
            + hosting.warnings.filter { !($0.rule?.hasPrefix("built-in ") ?? false) }.map(\.description) + (ledgerProblem.map { [$0] } ?? []) + retention.warnings
        report.seconds = (clock.now - started).seconds
        report.timings = BuildReport.Timings(read: report.seconds, bundles: 0, publish: 0)
        return report
    }
}

/// Where a build's documents come from.
public enum BuildInputs: Sendable {
    /// The config's inputs, read in this process (the map of one shard over all of them, then
    /// the merge).
    case exports
    /// The partials the map tasks of a sharded build wrote into these directories (one or several).
    case partials(directories: [String])
}

/// What a map task did.
public struct MapReport: Codable, Sendable {
    /// Shard `shard` (0-based) of `shards`.
    public var shard: Int
    public var shards: Int
    /// The documents its slice holds (duplicates included: the merge resolves them).
    public var documents: Int
    /// The partial's header file.
    public var partial: String
    public var seconds: Double
}

extension Duration {
    /// The duration in seconds, with its fraction.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
