import Foundation
import SystemSupport
import Testing
@testable import Publishing

@Suite("Build lock")
struct LockTests {
    @Test func aSecondBuildStopsAtOnceAndChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let output = dir.file("site")
        // flock(2) locks belong to an open file description, so a second open in this process
        // conflicts exactly as a second process would.
        let holder = try BuildLock.withLock(outputDirectory: output) { _ throws(BuildError) -> BuildLock.Holder? in
            guard case .locked(let path, let holder)? = buildError(config: config) else { return nil }
            #expect(path == dir.file("site/\(BuildLock.fileName)"))
            return holder
        }
        #expect(holder?.pid == getpid())
        #expect(holder?.started.hasSuffix("Z") == true)
        #expect(!FileManager.default.fileExists(atPath: dir.file("site/bundles")))

        let report = try build(config: config)
        #expect(report.warnings == [])
        #expect(FileManager.default.contents(atPath: dir.file("site/\(BuildLock.fileName)")) == Data())
    }

    @Test func lockedErrorNamesTheHolder() {
        let holder = BuildLock.Holder(pid: 42, host: "ci-1", started: "2026-01-01T00:00:00Z")
        let error = BuildError.locked(path: "site/.bundlepress.lock", holder: holder)
        #expect(error.description.hasPrefix("another bundlepress build (pid 42 on ci-1, started 2026-01-01T00:00:00Z) holds site/.bundlepress.lock"))
        #expect(error.description.contains("this build stopped without changing anything"))
    }

    @Test func lockOfABuildThatDiedIsTakenOverAndItsStagingRemoved() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        try dir.write("site/\(BuildLock.fileName)", "{\"pid\":999999,\"host\":\"elsewhere\",\"started\":\"2026-01-01T00:00:00Z\"}")
        try dir.write("site/bundles/.staging-999999-7/front.0123456789abcdef.bundle", "half")
        let report = try build(config: config)
        #expect(report.warnings == [
            "took over the lock of a build that did not finish (pid 999999 on elsewhere, started 2026-01-01T00:00:00Z); removed its staging directory .staging-999999-7",
        ])
        #expect(!FileManager.default.fileExists(atPath: dir.file("site/bundles/.staging-999999-7")))
        #expect(FileManager.default.contents(atPath: dir.file("site/\(BuildLock.fileName)")) == Data())
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)
    }

    @Test func aFailedBuildReleasesTheLock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, data: "not json\n")
        guard case .input? = buildError(config: config) else {
            Issue.record("expected an input error")
            return
        }
        let previous = try BuildLock.withLock(outputDirectory: dir.file("site")) { holder throws(BuildError) in holder }
        #expect(previous == nil)
    }
}
