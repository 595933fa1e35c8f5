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

            Past one machine (README, "Scaling out"): --shard K/N --partial DIR runs map task K \
            (counting from 0) of N: it reads the K-th of N slices of the inputs and writes into \
            DIR the documents that can ship whole and the others without their fields, publishing \
            nothing. What can ship includes what the site published before, so a map task reads \
            the previous state as the merge will: give it the merge's --output and --previous. \
            --merge DIR… then merges the partials of all N shards into the site, exactly as a \
            plain build would write it (byte for byte), with the same lock and atomic publish. \
            --shard auto takes K (and N) from the engine's \
            environment: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, with --shards N), \
            CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT (a Cloud Run job), \
            AWS_BATCH_JOB_ARRAY_INDEX (an AWS Batch array job, with --shards N).

            Examples:
              bundlepress build
              bundlepress build --previous https://example.web.app/ --snapshot-time 2026-11-24T03:00:00Z
              bundlepress build --dry-run --json
              bundlepress build --shard 0/8 --partial /shared/partials    (… up to 7/8, anywhere)
              bundlepress build --merge /shared/partials
              (with --output site or --previous URL, give it to the map tasks and the merge alike)
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(name: .shortAndLong, help: "The site directory (overrides output: in the config).")
    var output: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors (for cron).")
    var quiet = false

    @Flag(help: "Print the build report as JSON on standard output.")
    var json = false

    @Flag(name: .shortAndLong, help: "After the summary, print how long each stage took and what compressed the .gz copies.")
    var verbose = false

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

    @Option(
        name: .customLong("previous-timeout"),
        help: ArgumentHelp(
            "How long fetching the previous site from a URL may take, all of it, in seconds (default 120); slower fails the build with 69.",
            valueName: "seconds"))
    var previousTimeout: Int?

    @Option(
        help: ArgumentHelp(
            "Run one map task of a sharded build: slice K (from 0) of N of the inputs, or auto to read it from the engine's environment.",
            valueName: "K/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("The number of shards, for --shard auto when the environment does not say it.", valueName: "N"))
    var shards: Int?

    @Option(help: ArgumentHelp("Where a map task (--shard) writes its partial.", valueName: "dir"))
    var partial: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Merge the partials of every shard, found in these directories, into the site.", valueName: "dir"))
    var merge: [String] = []

    func validate() throws {
        if verbose && (quiet || json) { throw ValidationError("--verbose adds to the summary, which \(quiet ? "--quiet" : "--json") leaves out") }
        if shard != nil {
            guard partial != nil else { throw ValidationError("--shard needs --partial DIR: where the map task writes its partial") }
            for (given, name) in [(dryRun, "--dry-run"), (force, "--force"), (snapshotTime != nil, "--snapshot-time"), (!merge.isEmpty, "--merge")] where given {
                throw ValidationError("\(name) does not apply to a map task (--shard): \(name == "--merge" ? "merge once every map task has finished" : "give it to the merge (--merge)")")
            }
            if shard != "auto" {
                guard shards == nil else { throw ValidationError("--shards goes with --shard auto; --shard K/N says N already") }
                do throws(ShardError) { _ = try Shard(parsing: shard!) } catch { throw ValidationError("--shard: \(error)") }
            }
        } else {
            if partial != nil { throw ValidationError("--partial goes with --shard K/N (a map task); to merge partials, use --merge DIR") }
            if shards != nil { throw ValidationError("--shards goes with --shard auto") }
        }
        if let snapshotTime {
            do throws(TimestampError) {
                _ = try Timestamp(rfc3339: snapshotTime)
            } catch {
                throw ValidationError("--snapshot-time: \(error.message)")
            }
        }
        if let previousTimeout, previousTimeout <= 0 {
            throw ValidationError("--previous-timeout must be a positive number of seconds")
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
        HeapTuning.applyForReadingExports()
        let pause = try TestPause()
        var terminal = Terminal()
        var pipeline = try PipelineConfig.loadForCommand(config.file, terminal: &terminal)
        if let snapshotTime { pipeline.snapshotTime = try Timestamp(rfc3339: snapshotTime) }
        if let previous { pipeline.previous = try PreviousSite(parsing: previous, relativeTo: ".") }
        var builder = SiteBuilder(
            config: pipeline, outputDirectory: output, previousDeadline: previousTimeout.map { .seconds($0) } ?? PreviousFetchLimits.defaultDeadline)
        // Every CI host sets CI: there a build without state is a fresh checkout (returning-clients.md).
        builder.refusesUnknownPrevious = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
        var progress = BuildProgress(terminal: terminal, shows: !quiet && !json, dryRun: dryRun, pause: pause)
        if let shard, let partial {
            try runMap(shard: shard, partial: partial, builder: builder, progress: &progress)
            return
        }
        let report: BuildReport
        do {
            report = try builder.build(dryRun: dryRun, evenIfUpToDate: force, inputs: merge.isEmpty ? .exports : .partials(directories: merge)) {
                progress.show($0)
            }
        } catch {
            progress.terminal.error(error.description)
            throw ExitStatus.code(for: error)
        }
        terminal = progress.terminal
        terminal.clearProgress()
        if json {
            try printJSON(report)
        } else if !quiet {
            print(report.summary())
            if verbose { print(report.details(gzipLevel: pipeline.gzipLevel)) }
        }
        if !quiet {
            for warning in report.warnings { terminal.warning(warning) }
        }
    }

    /// Prints `report` as the JSON `--json` asks for.
    private func printJSON(_ report: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }

    /// Runs the map task `shard` names, writing its partial into `partial`.
    private func runMap(shard text: String, partial: String, builder: SiteBuilder, progress: inout BuildProgress) throws {
        let shard: Shard
        do throws(ShardError) {
            shard = text == "auto" ? try Shard.fromEnvironment(ProcessInfo.processInfo.environment, shards: shards) : try Shard(parsing: text)
        } catch {
            progress.terminal.error("--shard \(text): \(error)")
            throw ExitCode.validationFailure
        }
        let report: MapReport
        do {
            report = try builder.map(shard, into: partial) { progress.show($0) }
        } catch {
            progress.terminal.error(error.description)
            throw ExitStatus.code(for: error)
        }
        progress.terminal.clearProgress()
        if json {
            try printJSON(report)
        } else if !quiet {
            print("Shard \(report.shard)/\(report.shards): \(counted(report.documents, "document")) → \(report.partial) (\(String(format: "%.2f", report.seconds)) s)")
        }
    }
}

/// Shows a build's progress on the terminal (when it is one and output is not quiet or JSON),
/// and stops at the checkpoints tests ask for.
private struct BuildProgress {
    var terminal: Terminal
    let shows: Bool
    let dryRun: Bool
    let pause: TestPause
    /// The bundle being built, for the progress of its encoding and compression.
    private var bundle = ""

    init(terminal: Terminal, shows: Bool, dryRun: Bool, pause: TestPause) {
        self.terminal = terminal
        self.shows = shows
        self.dryRun = dryRun
        self.pause = pause
    }

    mutating func show(_ event: BuildEvent) {
        switch event {
        case .checkpoint(let checkpoint):
            pause.pause(at: checkpoint)
        case _ where !shows:
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
        case .writingPartial:
            terminal.progress("writing the partial")
        case .buildingBundle(let id, let index, let count):
            bundle = "bundle \(id)" + (count > 1 ? " (\(index + 1)/\(count))" : "")
            terminal.progress("building \(bundle)", done: index, of: count)
        case .writingBundle(let done, let bytes):
            terminal.progress("\(bundle): writing \(formatBytes(done)) of \(formatBytes(bytes))", done: done, of: bytes)
        case .planning:
            terminal.progress("running the named queries and planning each bundle's documents")
        case .publishing:
            terminal.progress(dryRun ? "comparing with the published site" : "publishing")
        }
    }
}
