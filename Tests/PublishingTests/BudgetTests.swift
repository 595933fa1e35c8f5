import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

@Suite("Size budgets")
struct BudgetTests {
    @Test func overBudgetFailsTheBuildAndPublishesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "budgets: {max_bundle_bytes: 100}\n" + SmallSite.config)
        guard case .budgetExceeded(let violations)? = buildError(config: config) else {
            Issue.record("expected a budget error")
            return
        }
        #expect(violations.map(\.bundle) == ["front", "lists"])
        #expect(violations.allSatisfy { $0.bytes > 100 && $0.limit == 100 && $0.setAt == "\(config):1:29" })
        let message = BuildError.budgetExceeded(violations).description
        #expect(message.hasPrefix("bundle \"front\" is \(violations[0].bytes) bytes, over its max_bundle_bytes of 100 (set at \(config):1:29); "))
        #expect(message.hasSuffix("\nnothing was published (set budgets.mode: warn to publish anyway)"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("site/bundles")))

        // A dry run fails the same way.
        let builder = SiteBuilder(config: try PipelineConfig.load(file: config))
        do throws(BuildError) {
            _ = try builder.build(dryRun: true)
            Issue.record("the dry run passed")
        } catch {
            guard case .budgetExceeded = error else {
                Issue.record("expected a budget error, found \(error)")
                return
            }
        }
    }

    @Test func aBundleOwnLimitOverridesTheGlobalOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let yaml = "budgets: {max_bundle_bytes: 100}\n" + SmallSite.config.replacingOccurrences(of: "  - id: front\n", with: "  - id: front\n    max_bundle_bytes: 1MB\n")
        let config = try SmallSite.write(into: dir, config: yaml)
        guard case .budgetExceeded(let violations)? = buildError(config: config) else {
            Issue.record("expected a budget error")
            return
        }
        #expect(violations.map(\.bundle) == ["lists"])
    }

    @Test func warnModePublishesAndReports() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "budgets: {max_bundle_bytes: 100, mode: warn}\n" + SmallSite.config)
        let report = try build(config: config)
        #expect(report.bundles.map(\.maxBytes) == [100, 100])
        #expect(report.budgetWarnings.map(\.bundle) == ["front", "lists"])
        #expect(report.warnings == report.budgetWarnings.map(\.description))
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)
    }

    @Test func aBundleExactlyAtItsLimitPasses() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let sizes = try build(config: config, output: dir.file("probe")).bundles.map(\.bytes)
        try SmallSite.write(into: dir, config: "budgets: {max_bundle_bytes: \(sizes.max() ?? 0)}\n" + SmallSite.config)
        #expect(try build(config: config).budgetWarnings == [])
    }
}
