import Foundation
import Testing

@Suite("bundlepress build under cron and CI")
struct CronTests {
    @Test func dryRunShowsWhatWouldChangeAndWritesNothing() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let before = try example.siteFiles()
        let settings = try example.read("exports/site/config.ndjson")
        try example.write("exports/site/config.ndjson", settings.replacingOccurrences(of: "BundlePress Daily", with: "BundlePress Weekly"))

        let text = try example.run("build", "--dry-run")
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("  front-page.") == true && lines.first?.hasSuffix("(changed)") == true, "\(text)")
        let summary = try #require(lines.first { $0.hasPrefix("Dry run") }, "\(text)")
        #expect(summary.hasPrefix("Dry run, nothing written: would build 8 bundles (0 new, 1 changed, 7 unchanged, 0 removed) "), "\(text)")
        #expect(summary.hasSuffix("site/bundles/manifest.json (would change)"), "\(text)")
        // The old front-page and its .gz copy, and the 15 snapshots of the old site time.
        #expect(lines.last == "Old files: 17 kept for clients of older manifests, 0 would be deleted", "\(text)")
        let json = try jsonObject(try example.run("build", "--dry-run", "--json").stdout)
        #expect(json["dryRun"] as? Bool == true)
        #expect(try example.siteFiles() == before)
    }

    @Test func removedBundlesAreReported() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let config = try example.read("pipeline.yml")
        let community = try #require(config.range(of: "  # People and conversation."))
        try example.write("pipeline.yml", String(config[..<community.lowerBound]))
        let result = try example.run("build")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\n  community  (removed)\nBuilt 7 bundles (0 new, 0 changed, 7 unchanged, 1 removed) "), "\(result)")
        // community and its .gz copy, and the snapshots of its 2 named queries.
        #expect(result.stdout.hasSuffix("\nOld files: 4 kept for clients of older manifests, 0 deleted\n"), "\(result)")
    }

    @Test func overBudgetExits3NamingEachBundleAndPublishesNothing() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let config = try example.read("pipeline.yml")
        let lines = config.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex(of: "budgets: {max_bundle_bytes: 1MB}")) + 1
        try example.write("pipeline.yml", config.replacingOccurrences(of: "max_bundle_bytes: 1MB}", with: "max_bundle_bytes: 40kB}"))
        let result = try example.run("build")
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout == "")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 4, "\(result)")
        for (error, id) in zip(errors, ["front-page", "sections", "community"]) {
            #expect(error.hasPrefix("error: bundle \"\(id)\" is "), "\(error)")
            #expect(error.contains(" bytes, over its max_bundle_bytes of 40000 (set at pipeline.yml:\(line):29); "), "\(error)")
        }
        #expect(errors.last == "error: nothing was published (set budgets.mode: warn to publish anyway)")
        #expect(!FileManager.default.fileExists(atPath: example.file("site/bundles")))

        try example.write("pipeline.yml", config.replacingOccurrences(of: "max_bundle_bytes: 1MB}", with: "max_bundle_bytes: 40kB, mode: warn}"))
        let warned = try example.run("build")
        #expect(warned.status == 0, "\(warned)")
        #expect(warned.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning: bundle \"") }.count == 3, "\(warned)")
        let quiet = try example.run("build", "--quiet")
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "" && quiet.stderr == "", "\(quiet)")
    }

    /// Runs `bundlepress build` on a pseudo-terminal through util-linux `script` (Debian's
    /// essential bsdutils): what the terminal shows is standard error; standard output goes to a file.
    @Test func progressBarOnATerminal() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let binary = try bundlepressBinary.get()
        let shownURL = URL(fileURLWithPath: example.file("terminal.out"))
        try Data().write(to: shownURL)
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["--quiet", "--return", "--command", "'\(binary)' build > stdout.txt", "/dev/null"]
        script.currentDirectoryURL = URL(fileURLWithPath: example.path)
        let shownHandle = try FileHandle(forWritingTo: shownURL)
        script.standardOutput = shownHandle
        script.standardInput = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        try shownHandle.close()
        #expect(script.terminationStatus == 0)
        #expect(try example.read("stdout.txt").hasPrefix("  front-page."))

        let shown = try String(contentsOf: shownURL, encoding: .utf8)
        for line in [
            "[....................]   0%  reading ./exports/authors.ndjson (1/4, ",
            // One bar for all inputs, by bytes: authors.ndjson is 4 % of them.
            "[....................]   4%  reading ./exports/comments.ndjson (2/4, 0 B of ",
            "[####################] 100%  read 536 documents from 4 files",
            "running the named queries and planning each bundle's documents",
            "[##########..........]  50%  building bundle section-sport (5/8)",
            "[####################] 100%  bundle section-sport (5/8): writing ",
            "publishing",
        ] {
            #expect(shown.contains("\r\u{1B}[2K" + line), "\(line) not shown: \(shown.debugDescription)")
        }
        #expect(shown.hasSuffix("publishing\r\u{1B}[2K"), "the progress line is not cleared: \(shown.debugDescription)")
    }
}
