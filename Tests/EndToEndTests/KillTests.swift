import Foundation
import Testing

/// The test-only hook of `bundlepress build` (Sources/bundlepress/TestPause.swift).
private let pauseVariable = "BUNDLEPRESS_TEST_PAUSE_AT"

/// Lock and retention files of the output: a build rewrites them, readers never see them. (The
/// state for returning clients is not one of them: it must stay as it was with the old manifest.)
private let stateFiles: Set = [".bundlepress.lock", ".bundlepress-retention.json"]
private let stagedState = ".bundlepress-state.next.json"

/// A published example whose data then changes (the front page's title), and a build of the
/// change killed with SIGKILL at `checkpoint`: the build's pid and the site before it.
private func killedBuild(at checkpoint: String, _ example: ExampleCopy, sourceLocation: SourceLocation = #_sourceLocation) throws -> (pid: Int32, before: [String: Data]) {
    let first = try example.run("build", "--quiet")
    #expect(first.status == 0, "\(first)", sourceLocation: sourceLocation)
    let before = try example.siteFiles()
    let settings = try example.read("exports/site/config.ndjson")
    try example.write("exports/site/config.ndjson", settings.replacingOccurrences(of: "BundlePress Daily", with: "BundlePress Weekly"))

    let running = try example.start("build", "--quiet", environment: [pauseVariable: checkpoint], sourceLocation: sourceLocation)
    let marker = "bundlepress-test-pause: \(checkpoint) pid \(running.process.processIdentifier)\n"
    let paused = running.waitForStandardError(containing: marker)
    running.kill()
    let result = try running.finish()
    #expect(paused != nil, "never paused at \(checkpoint): \(result)", sourceLocation: sourceLocation)
    #expect(result.status == SIGKILL, "\(result)", sourceLocation: sourceLocation)
    return (running.process.processIdentifier, before)
}

/// The build after a killed one: it takes the lock over, cleans up, publishes, and verifies.
private func rebuildAfterKill(_ example: ExampleCopy, killed pid: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
    let rebuild = try example.run("build")
    #expect(rebuild.status == 0, "\(rebuild)", sourceLocation: sourceLocation)
    #expect(rebuild.stderr.hasPrefix("warning: took over the lock of a build that did not finish (pid \(pid) on "), "\(rebuild)", sourceLocation: sourceLocation)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: example.file("site/bundles")).filter { $0.hasPrefix(".staging-") }
    #expect(leftovers == [], sourceLocation: sourceLocation)
    let verify = try example.run("verify", "site")
    #expect(verify.status == 0, "\(verify)", sourceLocation: sourceLocation)
    return rebuild
}

@Suite("bundlepress build killed with SIGKILL")
struct KillTests {
    @Test(arguments: ["locked", "staged", "bundles-in-place", "state-staged", "manifest-staged"])
    func killedBeforeTheManifestIsReplacedLeavesTheOldSiteIntact(_ checkpoint: String) throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let (pid, before) = try killedBuild(at: checkpoint, example)

        // Every file of the published site, byte for byte; only new content-hashed bundles and
        // snapshots, the killed build's staging directory and its scratch directory (where the bundles were
        // encoded, at the output's top) may have appeared.
        let after = try example.siteFiles()
        for (name, bytes) in before where !stateFiles.contains(name) {
            #expect(after[name] == bytes, "\(name) changed")
        }
        let added = Set(after.keys).subtracting(before.keys)
        let unexpected = added.filter { name in
            !(name.hasPrefix("bundles/.staging-\(pid)-") || name.hasPrefix(".staging-\(pid)-")
                || (name.hasPrefix("bundles/front-page.") && !name.contains("/.")) || name.hasPrefix("bundles/snapshots/") || name == stagedState)
        }
        #expect(unexpected.isEmpty, "\(unexpected.sorted())")
        #expect(added.contains(stagedState) == ["state-staged", "manifest-staged"].contains(checkpoint), "\(added.sorted())")
        // Files wait in staging only while they are staged (once moved, the directory is empty).
        #expect(added.contains { $0.hasPrefix("bundles/.staging-") } == ["staged", "manifest-staged"].contains(checkpoint), "\(added.sorted())")
        let verify = try example.run("verify", "site")
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout == "8 bundles ok, 0 with problems\n")

        let rebuild = try rebuildAfterKill(example, killed: pid)
        #expect(rebuild.stdout.contains("(0 new, 1 changed, 7 unchanged, 0 removed)"), "\(rebuild)")
        // The staged state named a manifest that was never published: the rebuild dropped it and
        // worked from the old state (no warning about it).
        #expect(!FileManager.default.fileExists(atPath: example.file("site/\(stagedState)")))
        #expect(!rebuild.stderr.contains("state"), "\(rebuild)")
        if checkpoint != "locked" {
            #expect(rebuild.stderr.contains("; removed its staging directory .staging-\(pid)-"), "\(rebuild)")
        }
    }

    @Test(arguments: ["manifest-in-place", "published"])
    func killedAfterTheManifestIsReplacedLeavesTheNewSiteAndTheOldFiles(_ checkpoint: String) throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let (pid, before) = try killedBuild(at: checkpoint, example)
        // Between the manifest's rename and the state's, the new state waits staged: it names the
        // published manifest, so the next build takes it.
        #expect(FileManager.default.fileExists(atPath: example.file("site/\(stagedState)")) == (checkpoint == "manifest-in-place"))

        // The new manifest is live; every file of the old site is still there for its clients.
        let after = try example.siteFiles()
        #expect(after["bundles/manifest.json"] != before["bundles/manifest.json"])
        for name in before.keys where name.hasSuffix(".bundle") || name.hasSuffix(".bundle.gz") {
            #expect(after[name] == before[name], "\(name) changed or was deleted")
        }
        let verify = try example.run("verify", "site")
        #expect(verify.status == 0, "\(verify)")

        let rebuild = try rebuildAfterKill(example, killed: pid)
        #expect(rebuild.stdout.contains("(0 new, 0 changed, 8 unchanged, 0 removed)"), "\(rebuild)")
        #expect(!FileManager.default.fileExists(atPath: example.file("site/\(stagedState)")))
        #expect(!rebuild.stderr.contains("state"), "\(rebuild)")
        // The old front-page and its .gz copy, and the 15 snapshots of the old site time.
        #expect(rebuild.stdout.hasSuffix("manifest.json (unchanged)\nOld files: 17 kept for clients of older manifests, 0 deleted\n"), "\(rebuild)")
    }
}
