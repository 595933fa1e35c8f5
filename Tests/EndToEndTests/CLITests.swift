import Foundation
import Testing

@Suite("bundlepress CLI on the example")
struct CLITests {
    @Test func binaryIsFound() {
        if case .failure(let error) = bundlepressBinary {
            Issue.record(Comment(rawValue: error.description))
        }
    }

    @Test func buildThenVerify() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let build = try example.run("build")
        #expect(build.status == 0, "\(build)")
        #expect(build.stderr == "", "progress or warnings on a non-terminal: \(build)")
        let lines = build.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == exampleBundleIDs.count + 1, "\(build)")
        let summary = try #require(lines.last)
        #expect(summary.hasPrefix("Built 8 bundles (8 new, 0 changed, 0 unchanged, 0 removed) from 536 documents in 4 files: "), "\(summary)")
        #expect(summary.hasSuffix("→ site/bundles/manifest.json"), "\(summary)")
        for (line, id) in zip(lines, exampleBundleIDs) {
            #expect(line.hasPrefix("  \(id)."), "\(line)")
            #expect(line.hasSuffix("(new)"), "\(line)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: example.file("site/bundles")).sorted()
        #expect(files.count == 2 * exampleBundleIDs.count + 2, "\(files)")  // the bundles, their .gz copies, the manifest and snapshots/
        // A snapshot of each of the 13 named queries and of the 2 listed documents.
        #expect(try FileManager.default.contentsOfDirectory(atPath: example.file("site/bundles/snapshots")).count == 15)
        #expect(files.filter { $0.hasSuffix(".bundle.gz") }.count == exampleBundleIDs.count)

        let verify = try example.run("verify", "site")
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout == "8 bundles ok, 0 with problems\n", "\(verify)")
        #expect(verify.stderr == "")
        // `site` is the default directory.
        #expect(try example.run("verify", "--quiet").stdout == "")
    }

    @Test func quietBuildPrintsNothing() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("build", "--quiet")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "")
        #expect(FileManager.default.fileExists(atPath: example.file("site/bundles/manifest.json")))
    }

    @Test func jsonReportThenUnchangedRebuild() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let first = try example.run("build", "--json")
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr == "")
        let report = try jsonObject(first.stdout)
        #expect(report["inputDocuments"] as? Int == 536)
        #expect(report["inputFiles"] as? Int == 4)
        #expect(report["manifestChanged"] as? Bool == true)
        #expect(report["outputDirectory"] as? String == "site")
        let manifest = try example.manifest()
        #expect(report["snapshotTime"] as? String == manifest["snapshot_time"] as? String)
        let bundles = try #require(report["bundles"] as? [[String: Any]])
        #expect(bundles.compactMap { $0["id"] as? String } == exampleBundleIDs)
        #expect(bundles.allSatisfy { $0["status"] as? String == "new" })
        #expect(report["removedBundles"] as? [String] == [])
        #expect(report["dryRun"] as? Bool == false)
        #expect((report["timings"] as? [String: Double])?.keys.sorted() == ["bundles", "publish", "read"])
        let compressor = try #require(report["compressor"] as? String)
        #expect(compressor.hasPrefix("libdeflate (") || compressor.hasPrefix("zlib 1."), "\(compressor)")
        #expect(bundles.allSatisfy { $0["maxBytes"] as? Int == 1_000_000 })
        let entries = try example.manifestBundles()
        for (bundle, entry) in zip(bundles, entries) {
            #expect("bundles/" + (bundle["file"] as? String ?? "?") == entry["url"] as? String)
            #expect(bundle["documents"] as? Int == entry["documents"] as? Int)
            #expect(bundle["bytes"] as? Int == entry["bytes"] as? Int)
            #expect(bundle["gzipBytes"] as? Int == entry["gzip_bytes"] as? Int)
            #expect(bundle["namedQueries"] as? [String] == entry["named_queries"] as? [String])
        }

        let second = try example.run("build", "--json")
        let again = try jsonObject(second.stdout)
        #expect(again["manifestChanged"] as? Bool == false)
        #expect((again["bundles"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "unchanged" } == true)

        let upToDate = try example.run("build")
        #expect(upToDate.status == 0)
        #expect(upToDate.stdout.hasPrefix("Up to date: the inputs, config, binary and published site are as the last build left them; 8 bundles unchanged, "), "\(upToDate)")
        let text = try example.run("build", "--force")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Built 8 bundles (0 new, 0 changed, 8 unchanged, 0 removed) from 536 documents"), "\(text)")
        #expect(text.stdout.hasSuffix("manifest.json (unchanged)\n"), "\(text)")
        #expect(text.stdout.components(separatedBy: "(unchanged)").count - 1 == exampleBundleIDs.count + 1, "\(text)")
    }

    /// `--verbose` adds the stages' times and the compressor to the summary; it has nothing to add
    /// to `--quiet` or `--json`.
    @Test func verboseNamesTheStagesAndTheCompressor() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("build", "--verbose")
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.dropLast(2).last?.hasPrefix("Built 8 bundles (8 new, ") == true, "\(result)")
        #expect(lines.dropLast().last?.wholeMatch(of: /Stages: read \d+\.\d\d s, bundles \d+\.\d\d s, publish \d+\.\d\d s/) != nil, "\(result)")
        #expect(lines.last?.wholeMatch(of: /Compressor: (libdeflate \(.+\)|zlib 1\.[0-9.]+), gzip_level 6/) != nil, "\(result)")
        for other in ["--quiet", "--json"] {
            let refused = try example.run("build", "--verbose", other)
            #expect(refused.status == 64 && refused.stderr.contains("--verbose adds to the summary, which \(other) leaves out"), "\(refused)")
        }
    }

    @Test func outputOption() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("build", "--quiet", "--output", "elsewhere")
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: example.file("elsewhere/bundles/manifest.json")))
        #expect(!FileManager.default.fileExists(atPath: example.file("site")))
        #expect(try example.run("verify", "elsewhere").status == 0)
    }

    @Test(arguments: ["url", "gzip_url"])
    func inspectBundles(_ key: String) throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        for entry in try example.manifestBundles() {
            let id = try #require(entry["id"] as? String)
            let file = "site/" + (try #require(entry[key] as? String))
            let gzip = key == "gzip_url"

            let text = try example.run("inspect", file)
            #expect(text.status == 0, "\(text)")
            #expect(text.stderr == "", "\(text)")
            #expect(text.stdout.hasPrefix("bundle \(id)\(gzip ? " (gzip)" : "")\n"), "\(text)")
            #expect(text.stdout.contains("  totalDocuments  \(entry["documents"] as? Int ?? -1)\n"))
            #expect(text.stdout.contains("named queries (\((entry["named_queries"] as? [String])?.count ?? -1))"))

            let json = try example.run("inspect", "--json", file)
            #expect(json.status == 0, "\(json)")
            let parsed = try jsonObject(json.stdout)
            let metadata = try #require(parsed["metadata"] as? [String: Any])
            #expect(metadata["id"] as? String == id)
            #expect(metadata["totalDocuments"] as? Int == entry["documents"] as? Int)
            #expect(metadata["createTime"] as? String == (try example.manifest())["snapshot_time"] as? String)
            #expect(parsed["gzip"] as? Bool == gzip)
            let documents = try #require(parsed["documents"] as? [[String: Any]])
            #expect(documents.count == entry["documents"] as? Int)
            let names = (parsed["namedQueries"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted()
            #expect(names == entry["named_queries"] as? [String])
            let documentMetadata = documents.compactMap { $0["metadata"] as? [String: Any] }
            #expect(documentMetadata.count == documents.count)
            #expect(documentMetadata.allSatisfy { ($0["name"] as? String)?.hasPrefix("projects/bundlepress-demo/databases/(default)/documents/") == true })
            #expect(documentMetadata.allSatisfy { $0["exists"] as? Bool == true })
            #expect(documents.allSatisfy { $0["document"] is [String: Any] })
        }
    }

    @Test func inspectWithFields() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let front = try #require(try example.manifestBundles().first?["url"] as? String)
        let result = try example.run("inspect", "--fields", "site/" + front)
        #expect(result.status == 0)
        #expect(result.stdout.contains("      title = {\"stringValue\":\"BundlePress Daily\"}"), "\(result)")
    }

    /// `inspect --exposure` of the example, against `Fixtures/example-exposure.txt`: a change to
    /// what the example publishes shows here first, to be read and accepted on purpose.
    @Test func inspectExposure() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let missing = try example.run("inspect", "--exposure")
        #expect(missing.status == 66 && missing.stderr.contains("site/bundles/manifest.json: no such file; build the site first"), "\(missing)")
        #expect(try example.run("build", "--quiet").status == 0)

        let text = try example.run("inspect", "--exposure")
        #expect(text.status == 0 && text.stderr == "", "\(text)")
        let golden = try #require(Bundle.module.url(forResource: "Fixtures/example-exposure.txt", withExtension: nil))
        #expect(text.stdout == String(decoding: try Data(contentsOf: golden), as: UTF8.self))

        let json = try jsonObject(try example.run("inspect", "--exposure", "--json", "site").stdout)
        #expect(json["config"] as? String == "pipeline.yml")
        let collections = try #require(json["collections"] as? [[String: Any]])
        #expect(collections.compactMap { $0["collection"] as? String } == ["authors", "comments", "site", "stories"])
        let authors = try #require(collections.first?["fields"] as? [[String: Any]])
        #expect(!authors.contains { $0["path"] as? String == "email" }, "redact: {authors: [email]} keeps it out")
        #expect((json["bundles"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == exampleBundleIDs)
        #expect((json["findings"] as? [Any])?.isEmpty == true)

        // Without the redaction the guard names the authors' emails.
        try example.write("pipeline.yml", try example.read("pipeline.yml").replacingOccurrences(of: "redact: {authors: [email]}", with: ""))
        #expect(try example.run("build", "--quiet").status == 0)
        let unredacted = try example.run("inspect", "--exposure")
        #expect(unredacted.stdout.contains("guard: 1 field looks like personal data or a secret\n  bundle \"community\" publishes authors.email, which looks like an email address"), "\(unredacted)")
    }

    @Test func initWritesAConfigThatBuildsAndVerifies() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let kept = try example.run("init")
        #expect(kept.status == 73 && kept.stderr == "error: pipeline.yml already exists; --force replaces it\n", "\(kept)")
        try FileManager.default.removeItem(atPath: example.file("pipeline.yml"))
        try example.write("package.json", #"{"name": "news-site", "scripts": {"prebuild": "bundlepress build"}}"#)

        let result = try example.run("init")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.hasPrefix("warning: not an export, left out: package.json:"), "\(result)")
        #expect(result.stdout.contains("exports/stories.ndjson: Firestore REST NDJSON, 160 documents\n"), "\(result)")
        #expect(result.stdout.contains("comments (nested: a collection group): 350 documents\n"), "\(result)")
        #expect(result.stdout.hasSuffix("Wrote pipeline.yml (and pipeline.schema.json, its JSON Schema for your editor). Next:\n  bundlepress build          # bundles, gzip copies and the manifest in site/\n  bundlepress serve --watch  # the explorer page at http://127.0.0.1:8080/, rebuilt as you edit\n"), "\(result)")

        #expect(try example.read("pipeline.yml").hasPrefix("# yaml-language-server: $schema=./pipeline.schema.json\n"))
        #expect(try example.read("pipeline.schema.json") == (try example.run("schema")).stdout)

        // Under CI a build that knows nothing of earlier publishes refuses (init writes no
        // previous:), naming the setting; on a terminal it builds with a warning;
        // --previous none is the explicit first publish.
        let refused = try example.start("build", environment: ["CI": "true"]).finish()
        #expect(refused.status == 78 && refused.stderr.contains("Set previous: in pipeline.yml") && refused.stderr.contains("--previous none"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: example.file("site/bundles/manifest.json")))
        #expect(try example.read("pipeline.yml").contains("\n# previous: https://your-site.example/\n"))
        let warned = try example.run("build", "--dry-run")
        #expect(warned.status == 0 && warned.stderr.contains("Set previous: (or --previous)"), "\(warned)")
        let build = try example.start("build", "--previous", "none", environment: ["CI": "true"]).finish()
        #expect(build.status == 0 && build.stderr == "", "\(build)")
        #expect(build.stdout.contains("Built 3 bundles (3 new, 0 changed, 0 unchanged, 0 removed) from 536 documents in 4 files"), "\(build)")
        #expect(try example.run("verify").status == 0)
        #expect(try example.run("init", "--force", "exports/authors.ndjson").status == 0)
        #expect(try example.read("pipeline.yml").contains("  - exports/authors.ndjson  # Firestore REST NDJSON, 24 documents\n"))
        // A config in another folder names the inputs from there, as build reads them.
        try FileManager.default.createDirectory(atPath: example.file("config"), withIntermediateDirectories: true)
        #expect(try example.run("init", "exports/authors.ndjson", "--config", "config/site.yml").status == 0)
        #expect(try example.read("config/site.yml").contains("  - \"../exports/authors.ndjson\"  # "))
        #expect(FileManager.default.fileExists(atPath: example.file("config/pipeline.schema.json")))
        #expect(try example.run("build", "--config", "config/site.yml", "--quiet").status == 0)
    }

    /// A newcomer's path on each sample export format as found (with its duplicates across
    /// files, and without update times): `init` in the folder, then `build` and `verify` as the
    /// config was written, without editing it; a second `init --force` finds the same exports
    /// (not the schema the first wrote).
    @Test(arguments: ["bigquery-export", "canonical", "firestore-backfire", "firestore-export-import", "managed-export", "node-firestore-import-export", "rest"])
    func initOnEachSampleFormatBuildsAndVerifiesUnedited(sample: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("EndToEndTests-init-\(sample)-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Tests/ExportReaderTests/Fixtures/\(sample)").path, toPath: directory)
        let initialised = try runBundlepress(["init"], in: directory)
        // Files a sample folder holds that are no export (kept there to test the reader) are named.
        #expect(initialised.status == 0, "\(initialised)")
        #expect(initialised.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("warning: not an export, left out: ") }, "\(initialised)")
        let config = try String(contentsOfFile: directory + "/pipeline.yml", encoding: .utf8)
        let build = try runBundlepress(["build", "--quiet"], in: directory)
        #expect(build.status == 0, "\(build)\n\(config)")
        let verify = try runBundlepress(["verify", "site"], in: directory)
        #expect(verify.status == 0, "\(verify)")
        let again = try runBundlepress(["init", "--force"], in: directory)
        #expect(again.status == 0 && again.stderr == initialised.stderr, "\(again)")
    }

    @Test func initWithoutExportsSaysWhatItLookedFor() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("EndToEndTests-init-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let result = try runBundlepress(["init"], in: empty)
        #expect(result.status == 66 && result.stderr.contains("no Firestore export found under this directory"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: empty + "/pipeline.yml"))
        let unreadable = try runBundlepress(["init", "missing.ndjson"], in: empty)
        #expect(unreadable.status == 66 && unreadable.stderr.contains("missing.ndjson"), "\(unreadable)")
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: empty + "/numbers.json"))
        let notAnExport = try runBundlepress(["init", "numbers.json"], in: empty)
        #expect(notAnExport.status == 65 && notAnExport.stderr.contains("numbers.json"), "\(notAnExport)")
    }

    /// `init --from-extension`: exports without specs are a usage error naming the collections
    /// found; with specs, the config it writes builds them, at the extension's URLs.
    @Test func initFromExtensionWritesTheSpecsOrSaysThereAreNone() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try FileManager.default.removeItem(atPath: example.file("pipeline.yml"))
        let none = try example.run("init", "--from-extension")
        #expect(none.status == 64, "\(none)")
        #expect(none.stderr.contains("error: the exports hold no bundle spec in collection bundles (top-level collections: authors, site, stories); "), "\(none)")
        #expect(!FileManager.default.fileExists(atPath: example.file("pipeline.yml")))
        let stray = try example.run("init", "--extension-collection", "specs")
        #expect(stray.status == 64 && stray.stderr.contains("--extension-collection is an option of --from-extension"), "\(stray)")

        let specs = #"{"name":"projects/bundlepress-demo/databases/(default)/documents/specs/by-category","fields":{"params":{"mapValue":{"fields":{"category":{"mapValue":{"fields":{"required":{"booleanValue":true}}}}}}},"queries":{"mapValue":{"fields":{"by-category":{"mapValue":{"fields":{"collection":{"stringValue":"stories"},"conditions":{"arrayValue":{"values":[{"mapValue":{"fields":{"where":{"arrayValue":{"values":[{"stringValue":"category"},{"stringValue":"=="},{"stringValue":"$category"}]}}}}}]}}}}}}}}},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z"}"#
        try example.write("exports/specs.ndjson", specs + "\n")
        let written = try example.run("init", "--from-extension", "--extension-collection", "specs")
        #expect(written.status == 0 && written.stdout.contains("bundle specs in specs: 1\n  by-category  category: 5 values\n"), "\(written)")
        #expect(try example.read("pipeline.yml").contains("\nextension:\n  collection: specs\n"))
        let build = try example.run("build", "--quiet", "--previous", "none")
        #expect(build.status == 0, "\(build)")
        #expect(try example.read("pipeline.yml").contains("      category: [culture, science, sport, tech, world]\n"))
        #expect(try example.manifestBundles().count == 5)
        #expect(FileManager.default.fileExists(atPath: example.file("site/bundles/by-category/category/sport")))
    }

    @Test func inspectNeedsAFileOrExposure() throws {
        let result = try runBundlepress(["inspect"], in: FileManager.default.temporaryDirectory.path)
        #expect(result.status == 64 && result.stderr.contains("Missing expected argument '<file>'"), "\(result)")
    }

    @Test(arguments: [
        (["--help"], ["init", "build", "inspect", "verify", "schema", "Exit status", "3 a bundle", "65", "66", "74", "75", "78"]),
        (["build", "--help"], ["--config", "--output", "--quiet", "--json", "--dry-run", "atomic", "exits 75", "exit status 3"]),
        (["inspect", "--help"], ["<file>", "--json", "--fields", ".bundle.gz", "--exposure", "--config"]),
        (["verify", "--help"], ["<directory>", "--quiet", "SHA-256", "Examples:"]),
        (["init", "--help"], ["<inputs>", "--config", "--force", "--project", "Examples:"]),
        (["serve", "--help"], ["--upstream", "Examples:", "bundlepress serve --dir"]),
        (["query", "--help"], ["--structured-query", "Examples:", "bundlepress query latest-stories"]),
        (["convert", "--help"], ["--project", "Examples:", "bundlepress convert backups/"]),
        (["schema", "--help"], ["JSON Schema", "yaml-language-server", "Examples:"]),
    ])
    func help(_ arguments: [String], _ mentions: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.path
        let result = try runBundlepress(arguments, in: dir)
        #expect(result.status == 0, "\(result)")
        for mention in mentions {
            #expect(result.stdout.contains(mention), "\(arguments) help lacks \(mention):\n\(result.stdout)")
        }
    }

    @Test func version() throws {
        let result = try runBundlepress(["--version"], in: FileManager.default.temporaryDirectory.path)
        #expect(result.status == 0)
        // The release script names the tarball and stamps the npm package with this line.
        #expect(result.stdout.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?\n/) != nil, "\(result)")
    }
}
