import Foundation
import Testing

@Suite("Two builds on one output")
struct ConcurrentBuildTests {
    @Test func theSecondExits75AndTheLockOfAKilledFirstIsTakenOver() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        // The first build holds the lock and waits (test-only pause) before reading anything.
        let first = try example.start("build", environment: ["BUNDLEPRESS_TEST_PAUSE_AT": "locked"])
        let pid = first.process.processIdentifier
        let paused = first.waitForStandardError(containing: "bundlepress-test-pause: locked pid \(pid)\n")
        #expect(paused != nil, "\(first.standardError)")

        let second = try example.run("build")
        #expect(second.status == 75, "\(second)")
        #expect(second.stdout == "")
        #expect(second.stderr.hasPrefix("error: another bundlepress build (pid \(pid) on "), "\(second)")
        #expect(second.stderr.hasSuffix(
            ") holds site/.bundlepress.lock and is publishing to the same output; this build stopped without changing anything: run it again when that one has finished, or give it another --output\n"),
            "\(second)")
        #expect(!FileManager.default.fileExists(atPath: example.file("site/bundles")))
        // A dry run takes no lock.
        #expect(try example.run("build", "--dry-run", "--quiet").status == 0)

        first.kill()
        _ = try first.finish()
        let third = try example.run("build")
        #expect(third.status == 0, "\(third)")
        #expect(third.stderr.hasPrefix("warning: took over the lock of a build that did not finish (pid \(pid) on "), "\(third)")
        #expect(try example.run("verify", "site").status == 0)
        // Released at the end: the next build takes it without a warning.
        #expect(try example.run("build").stderr == "")
    }
}
