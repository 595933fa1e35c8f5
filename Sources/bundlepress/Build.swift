import ArgumentParser
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
            and files whose content did not change are not rewritten.

            Safe under cron: a second build on the same output exits 75 at once (the lock of a \
            build that died is taken over); old bundle files stay for clients of older manifests \
            as retention: says, then are deleted; a bundle over its max_bundle_bytes fails the \
            build with exit status 3 (or only warns with budgets.mode: warn). Progress is shown \
            on a terminal only; --quiet prints nothing but errors.
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

    func run() throws {
        let pause = try TestPause()
        var terminal = Terminal()
        let pipeline = try PipelineConfig.loadForCommand(config, terminal: &terminal)
        let builder = SiteBuilder(config: pipeline, outputDirectory: output)
        let showProgress = !quiet && !json
        let report: BuildReport
        do {
            report = try builder.build(dryRun: dryRun) { event in
                switch event {
                case .checkpoint(let checkpoint):
                    pause.pause(at: checkpoint)
                case _ where !showProgress:
                    break
                case .readingInput(let path, let index, let count, let bytes):
                    terminal.progress("reading \(path) (\(index + 1)/\(count), \(formatBytes(bytes)))", done: index, of: count)
                case .inputsRead(let documents, let files):
                    terminal.progress("read \(documents) documents from \(files) files", done: files, of: files)
                case .buildingBundle(let id, let index, let count):
                    terminal.progress("building bundle \(id) (\(index + 1)/\(count))", done: index, of: count)
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
            print(summary(report))
        }
        if !quiet {
            for warning in report.warnings { terminal.warning(warning) }
        }
    }

    private func summary(_ report: BuildReport) -> String {
        var lines: [String] = []
        for bundle in report.bundles {
            lines.append("  \(bundle.file)  \(bundle.documents) docs, \(bundle.namedQueries.count) queries, \(formatBytes(bundle.bytes)) → \(formatBytes(bundle.gzipBytes)) gzip  (\(bundle.status.rawValue))")
        }
        lines += report.removedBundles.map { "  \($0)  (removed)" }
        let verb = report.dryRun ? "Dry run, nothing written: would build" : "Built"
        let manifestState = report.manifestChanged ? (report.dryRun ? " (would change)" : "") : " (unchanged)"
        lines.append(
            "\(verb) \(report.bundles.count) bundles (\(report.count(.new)) new, \(report.count(.changed)) changed, \(report.count(.unchanged)) unchanged, \(report.removedBundles.count) removed) "
                + "from \(report.inputDocuments) documents in \(report.inputFiles) files: "
                + "\(formatBytes(report.totalBytes)) raw, \(formatBytes(report.totalGzipBytes)) gzip, snapshot \(report.snapshotTime), "
                + "\(String(format1: report.seconds)) s → \(report.outputDirectory)/bundles/manifest.json\(manifestState)")
        let retention = report.retention
        if !retention.retained.isEmpty || !retention.deleted.isEmpty {
            lines.append("Old files: \(retention.retained.count) kept for clients of older manifests, \(retention.deleted.count) \(report.dryRun ? "would be " : "")deleted")
        }
        return lines.joined(separator: "\n")
    }
}
