import ArgumentParser
import Foundation
import Publishing

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site: exports → bundles, gzip copies and manifest.",
        discussion: """
            Reads every input of the config, runs each bundle's named queries, and publishes \
            <output>/bundles/<id>.<hash>.bundle(.gz) plus <output>/bundles/manifest.json. \
            Publishing is atomic: on any error the previously published site is left untouched. \
            Same inputs and config give byte-identical files.
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

    func run() throws {
        var terminal = Terminal()
        let pipeline = try PipelineConfig.loadForCommand(config, terminal: &terminal)
        let builder = SiteBuilder(config: pipeline, outputDirectory: output)
        let showProgress = !quiet && !json
        let report: BuildReport
        do {
            report = try builder.build { event in
                guard showProgress else { return }
                switch event {
                case .readingInput(let path, let index, let count, let bytes):
                    terminal.progress("reading \(path) (\(index + 1)/\(count), \(formatBytes(bytes)))")
                case .inputsRead(let documents, let files):
                    terminal.progress("read \(documents) documents from \(files) files")
                case .buildingBundle(let id, let index, let count):
                    terminal.progress("building bundle \(id) (\(index + 1)/\(count))")
                case .publishing:
                    terminal.progress("publishing")
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
    }

    private func summary(_ report: BuildReport) -> String {
        var lines: [String] = []
        for bundle in report.bundles {
            let state = bundle.unchanged ? "unchanged" : "written"
            lines.append("  \(bundle.file)  \(bundle.documents) docs, \(bundle.namedQueries.count) queries, \(formatBytes(bundle.bytes)) → \(formatBytes(bundle.gzipBytes)) gzip  (\(state))")
        }
        let written = report.bundles.filter { !$0.unchanged }.count
        lines.append(
            "Built \(report.bundles.count) bundles (\(written) written, \(report.bundles.count - written) unchanged) from \(report.inputDocuments) documents in \(report.inputFiles) files: "
                + "\(formatBytes(report.totalBytes)) raw, \(formatBytes(report.totalGzipBytes)) gzip, snapshot \(report.snapshotTime), "
                + "\(String(format1: report.seconds)) s → \(report.outputDirectory)/bundles/manifest.json\(report.manifestChanged ? "" : " (unchanged)")")
        return lines.joined(separator: "\n")
    }
}
