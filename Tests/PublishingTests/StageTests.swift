import Crypto
import FirestoreModel
import Foundation
import Hosting
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// The build's stages run alone, each given the values the stages before it hand forward.
@Suite("the build's stages, run alone")
struct StageTests {
    /// Writing takes a plan and the documents set aside, and leaves every bundle (raw and gzip)
    /// and snapshot in the scratch directory, the plan's entries moved out, and the manifest of them.
    @Test func writingLeavesEachBundleAndItsSnapshotsInTheScratchDirectory() throws {
        try Self.withSmallSite { dir, config in try writing(dir, config) }
    }

    private func writing(_ dir: TemporaryDirectory, _ config: PipelineConfig) throws {
        let scratch = dir.file("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)

        let (written, resolved, plan, snapshotTime) = try Self.write(config, readingIn: dir.path, into: scratch)

        #expect(written.bundles.map(\.id) == resolved.bundles.map(\.id))
        #expect(plan.bundles.allSatisfy { $0.entries.isEmpty })
        for bundle in written.bundles {
            let raw = try Data(contentsOf: URL(fileURLWithPath: bundle.files.rawPath))
            #expect(raw.count == bundle.byteCount && SHA256.hash(data: raw).hex == bundle.sha256, "\(bundle.id)")
            #expect(FileManager.default.fileExists(atPath: bundle.files.gzipPath), "\(bundle.id)")
        }
        let queryNames = resolved.bundles.flatMap(\.queries).map(\.name)
        #expect(written.snapshots.flatMap(\.snapshots).compactMap { if case .query(let name) = $0.source { name } else { nil } }.sorted() == queryNames.sorted())
        for snapshot in written.snapshots.flatMap(\.snapshots) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot.path)).count == snapshot.byteCount)
        }
        let manifest = written.manifest(specs: resolved.bundles, config: config, snapshotTime: snapshotTime, siteTime: plan.siteTime)
        #expect(manifest.bundles.map(\.url) == written.bundles.map { "bundles/\($0.fileName)" })
        #expect(Set(written.siteFiles.map(\.name)).count == written.siteFiles.count)
    }

    /// Publishing takes the written files, the manifest and the new state, and puts them in place
    /// beside a site generator's files, which it leaves as they were; a second publish of the same
    /// changes nothing, a dry run writes nothing, and a refresh puts back a missing extra.
    @Test func publishingPutsTheWrittenSiteInPlaceAndLeavesOtherFilesAlone() throws {
        try Self.withSmallSite { dir, config in try publishing(dir, config) }
    }

    private func publishing(_ dir: TemporaryDirectory, _ config: PipelineConfig) throws {
        let site = dir.file("public")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let page = Data("<p>the generator's page</p>\n".utf8)
        let headers = "/*\n  X-Frame-Options: DENY\n"
        try page.write(to: URL(fileURLWithPath: "\(site)/index.html"))
        try Data(headers.utf8).write(to: URL(fileURLWithPath: "\(site)/_headers"))
        let publication = SitePublication(outputDirectory: site, config: config)

        func publishOnce(dryRun: Bool) throws -> (published: SitePublication.Published, manifest: Manifest) {
            let scratch = dir.file("scratch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let (written, resolved, plan, snapshotTime) = try Self.write(config, readingIn: dir.path, into: scratch)
            let manifest = written.manifest(specs: resolved.bundles, config: config, snapshotTime: snapshotTime, siteTime: plan.siteTime)
            let published = try publication.publish(
                files: written.siteFiles, manifest: manifest, history: plan.history, replacing: [], dryRun: dryRun) { _ in }
            return (published, manifest)
        }

        let dry = try publishOnce(dryRun: true)
        #expect(dry.published.outcome.manifestChanged && !dry.published.outcome.written.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(site)/bundles"))

        let first = try publishOnce(dryRun: false)
        #expect(first.published.outcome.manifestChanged && first.published.outcome.written.count == first.manifest.referencedFiles.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(site)/bundles/manifest.json")) == first.manifest.encoded())
        for name in first.manifest.referencedFiles {
            #expect(FileManager.default.fileExists(atPath: "\(site)/bundles/\(name)"), "\(name)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(site)/index.html")) == page)
        let merged = try String(contentsOfFile: "\(site)/_headers", encoding: .utf8)
        #expect(merged.hasPrefix(headers) && merged.contains(MarkedBlock.startLine))

        let second = try publishOnce(dryRun: false)
        #expect(!second.published.outcome.manifestChanged && second.published.outcome.written.isEmpty)
        #expect(second.published.retention.retained.isEmpty && second.published.retention.deleted.isEmpty)

        try FileManager.default.removeItem(atPath: "\(site)/bundles/bundlepress.js")
        let published = try #require(SitePublisher(outputDirectory: site).publishedManifest().published)
        let refreshed = try publication.refresh(published)
        #expect(FileManager.default.fileExists(atPath: "\(site)/bundles/bundlepress.js"))
        #expect(refreshed.retention.deleted.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(site)/index.html")) == page)
    }

    /// Runs `body` with a temporary directory holding ``SmallSite`` and its config, loaded.
    private static func withSmallSite(_ label: String = #function, _ body: (TemporaryDirectory, PipelineConfig) throws -> Void) throws {
        let dir = try TemporaryDirectory(label)
        defer { dir.remove() }
        try body(dir, try PipelineConfig.load(file: try SmallSite.write(into: dir)))
    }

    /// The stages up to writing, for a first build of `config`: read (documents set aside in
    /// `directory`), resolved, selected, planned, and written into `scratch`.
    private static func write(
        _ config: PipelineConfig, readingIn directory: String, into scratch: String
    ) throws -> (written: WrittenSite, resolved: PipelineConfig, plan: ShipmentPlan, snapshotTime: Timestamp) {
        var inputs = try LoadedInputs.load(config, candidates: try CandidateRules(config, previous: nil), in: directory) { _ in }
        let resolved = try inputs.resolve(config)
        let selections = try BundleSelection.select(resolved.bundles, store: inputs.store)
        let selected = selections.map { (policy: $0.fieldPolicy, queries: $0.namedQueries) }
        var plan = try ShipmentPlanner(previous: nil, snapshotTime: inputs.snapshotTime, leavers: config.leavers, floorWithoutHistory: inputs.snapshotTime)
            .plan(selections, store: inputs.store, setAside: inputs.setAside)
        let written = try WrittenSite.write(&plan, specs: resolved.bundles, selected: selected, setAside: inputs.setAside, config: config, into: scratch) { _ in }
        return (written, resolved, plan, inputs.snapshotTime)
    }
}
