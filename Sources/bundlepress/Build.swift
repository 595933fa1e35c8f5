import ArgumentParser
import FirestoreModel
import Foundation
import PipelineLanguage
import Publishing

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site: exports → bundles, gzip copies and manifest.",
        discussion: """
            Reads every input of the config, runs each bundle's named queries, and publishes \
            <output>/bundles/<id>.<hash>.bundle(.gz) plus <output>/bundles/manifest.json. \
            Publishing is atomic: on any error, or if the build is killed, the previously \
            published site is left untouched. Same inputs and config give byte-identical files, \
            and files whose content did not change are not rewritten. When the inputs (by \
            content), the config, the binary and the published site are as the last build left \
            them, nothing is built at all: the build says "Up to date" and only applies \
            retention (--force builds anyway).

            Safe under cron: a second build on the same output exits 75 at once (the lock of a \
            build that died is taken over); old bundle files stay for clients of older manifests \
            as retention: says, then are deleted; a bundle over its max_bundle_bytes fails the \
            build with exit status 3 (or only warns with budgets.mode: warn). Progress is shown \
            on a terminal only; --quiet prints nothing but errors.

            Returning clients: apps keep their cache across builds, so a changed bundle gets a \
            createTime later than every earlier one of its id, and carries the current version \
            of documents that left it and changed (or a missing-document marker for deleted ones) \
            for leavers.keep (30 days by default). What was shipped is kept in \
            <output>/.bundlepress-state.json; a build from a fresh checkout brings it with \
            --previous (the deployed site's URL, or a directory holding the last output).

            Reference: docs/pipeline.md (every key), docs/cron.md (schedules, locking, retention), \
            docs/returning-clients.md, docs/deploying.md (the header files each build writes for \
            production hosts).

            Examples:
              bundlepress build
              bundlepress build --previous https://example.web.app/ --snapshot-time 2026-11-24T03:00:00Z
              bundlepress build --dry-run --json
            """
    )

    @Option(name: .shortAndLong, help: "The pipeline config file.")
    var config = "pipeline.yml"

    @Option(name: .shortAndLong, help: "The site directory (overrides output: in the config).")
    var output: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors (for cron).")
    var quiet = false

    @Flag(help: "Print the build report as JSON on standard output.")
    var json = false

    @Flag(name: .customLong("dry-run"), help: "Build in memory and report what would change, writing nothing (not even the lock).")
    var dryRun = false

    @Flag(help: "Build even when the inputs, config, binary and published site are as the last build left them.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "When the export was taken (RFC 3339, e.g. 2026-11-24T03:00:00Z); overrides snapshot_time:.",
            discussion: "Named queries' read times are the snapshot time: the closer to the export, the fewer changes a listening app misses.",
            valueName: "time"))
    var snapshotTime: String?

    @Option(
        help: ArgumentHelp(
            "What was published before, when the output holds no state: the deployed site's URL, a directory holding the last output, or none for a new site; overrides previous:.",
            valueName: "url|dir|none"))
    var previous: String?

    func validate() throws {
        if let snapshotTime {
            do throws(TimestampError) {
                _ = try Timestamp(rfc3339: snapshotTime)
            } catch {
                throw ValidationError("--snapshot-time: \(error.message)")
            }
        }
        if let previous {
            do {
                _ = try PreviousSite(parsing: previous, relativeTo: ".")
            } catch {
                throw ValidationError("--previous: \(error)")
            }
        }
    }

    func run() throws {
        let pause = try TestPause()
        var terminal = Terminal()
        var pipeline = try PipelineConfig.loadForCommand(config, terminal: &terminal)
        if let snapshotTime { pipeline.snapshotTime = try Timestamp(rfc3339: snapshotTime) }
        if let previous { pipeline.previous = try PreviousSite(parsing: previous, relativeTo: ".") }
        let builder = SiteBuilder(config: pipeline, outputDirectory: output)
        let showProgress = !quiet && !json
        // The bundle being built, for the progress of its encoding and compression.
        var bundle = ""
        let report: BuildReport
        do {
            report = try builder.build(dryRun: dryRun, evenIfUpToDate: force) { event in
                switch event {
                case .checkpoint(let checkpoint):
                    pause.pause(at: checkpoint)
                case _ where !showProgress:
                    break
                case .checkingForChanges:
                    terminal.progress("checking the inputs for changes since the last build")
                case .readingInput(let input):
                    // One bar for all inputs, by bytes: a large file moves it as it is read.
                    let file = input.count > 1 ? "\(input.index + 1)/\(input.count), " : ""
                    terminal.progress(
                        "reading \(input.path) (\(file)\(formatBytes(input.bytesRead)) of \(formatBytes(input.bytes)))",
                        done: input.totalBytesRead, of: input.totalBytes)
                case .inputsRead(let documents, let files):
                    terminal.progress("read \(counted(documents, "document")) from \(counted(files, "file"))", done: files, of: files)
                case .buildingBundle(let id, let index, let count):
                    bundle = "bundle \(id)" + (count > 1 ? " (\(index + 1)/\(count))" : "")
                    terminal.progress("building \(bundle)", done: index, of: count)
                case .encodingBundle(let encoded, let documents):
                    terminal.progress("\(bundle): encoding, \(encoded) of \(counted(documents, "document"))", done: encoded, of: documents)
                case .compressingBundle(let done, let bytes):
                    terminal.progress("\(bundle): compressing, \(formatBytes(done)) of \(formatBytes(bytes))", done: done, of: bytes)
                case .planning:
                    terminal.progress("running the named queries and planning each bundle's documents")
                case .publishing:
                    terminal.progress(dryRun ? "comparing with the published site" : "publishing")
                }
            }
        } catch {
            terminal.error(error.description)
            throw ExitStatus.code(for: error)
        }
        terminal.clearProgress()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else if !quiet {
            print(report.summary())
        }
        if !quiet {
            for warning in report.warnings { terminal.warning(warning) }
        }
    }
}
