import ArgumentParser
import Foundation
import PipelineLanguage
import Publishing

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a published site: manifest, hashes, gzip copies, strict bundle reads, query results.",
        discussion: """
            For every bundle in <dir>/bundles/manifest.json: the file and its .gz exist with the \
            recorded sizes and SHA-256, the .gz decompresses to the same bytes, the bundle passes \
            the strict reader, and each named query run over the bundle returns exactly the \
            documents the bundle lists for it. Exits 1 when anything is wrong. Without <dir>: \
            the output: of the config (--config, else pipeline.yml when there is one), else site.

            Reference: docs/cli.md (what it checks, exit statuses), docs/returning-clients.md (the \
            state it checks).

            Examples:
              bundlepress verify                 (the output: of pipeline.yml)
              bundlepress verify public --quiet && firebase deploy --only hosting
            """
    )

    @Argument(help: "The site directory; default: the config's output: (site without a config).")
    var directory: String?

    @OptionGroup var config: ConfigOption

    @Flag(name: .shortAndLong, help: "Print only problems.")
    var quiet = false

    func run() throws {
        var terminal = Terminal()
        var site = directory ?? "site"
        if directory == nil, let file = config.existingFile {
            site = try PipelineConfig.loadForCommand(file, terminal: &terminal).outputDirectory
        }
        let report = SiteVerifier(siteDirectory: site).verify()
        for warning in report.warnings { terminal.warning(warning.description) }
        for problem in report.problems { terminal.error(problem.description) }
        if !quiet {
            print("\(counted(report.checkedBundles.count, "bundle")) ok, \(Set(report.problems.compactMap(\.bundle)).count) with problems\(report.problems.contains { $0.bundle == nil } ? ", manifest problems" : "")")
        }
        if !report.isValid { throw ExitStatus.problemsFound }
    }
}
