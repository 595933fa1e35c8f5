import Crypto
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// The build's stages run alone, each given the values the stages before it hand forward.
@Suite("the build's stages, run alone")
struct StageTests {
    /// Writing takes a plan and the documents set aside, and leaves every bundle (raw and gzip)
    /// and snapshot in the scratch directory, the plan's entries moved out, and the manifest of them.
    @Test func writingLeavesEachBundleAndItsSnapshotsInTheScratchDirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try PipelineConfig.load(file: try SmallSite.write(into: dir))
        var inputs = try LoadedInputs.load(config, candidates: try CandidateRules(config, previous: nil), in: dir.path) { _ in }
        let resolved = try inputs.resolve(config)
        let selections = try BundleSelection.select(resolved.bundles, store: inputs.store)
        let selected = selections.map { (policy: $0.fieldPolicy, queries: $0.namedQueries) }
        var plan = try ShipmentPlanner(previous: nil, snapshotTime: inputs.snapshotTime, leavers: config.leavers, floorWithoutHistory: inputs.snapshotTime)
            .plan(selections, store: inputs.store, setAside: inputs.setAside)
        let scratch = dir.file("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)

        let written = try WrittenSite.write(&plan, specs: resolved.bundles, selected: selected, setAside: inputs.setAside, config: config, into: scratch) { _ in }

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
        let manifest = written.manifest(specs: resolved.bundles, config: config, snapshotTime: inputs.snapshotTime, siteTime: plan.siteTime)
        #expect(manifest.bundles.map(\.url) == written.bundles.map { "bundles/\($0.fileName)" })
        #expect(Set(written.siteFiles.map(\.name)).count == written.siteFiles.count)
    }
}
