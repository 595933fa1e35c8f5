import JSONCore
import Testing
@testable import PipelineLanguage

/// `retention:`, `budgets:` and `max_bundle_bytes:` mistakes, with their YAML positions.
let cronConfigErrorCases: [ConfigErrorCase] = {
    let rest = "inputs: [data.ndjson]\nbundles:\n  - id: b\n    documents: [c/a]\n"
    return [
        ConfigErrorCase(
            name: "negative retention builds",
            yaml: "project: demo\nretention: {builds: -1}\n" + rest,
            line: 2, column: 21, fragments: ["retention.builds must be between 0 and 1000000, found -1"]),
        ConfigErrorCase(
            name: "min_age without a unit",
            yaml: "project: demo\nretention: {min_age: 3600}\n" + rest,
            line: 2, column: 22, fragments: ["retention.min_age must be a duration such as 90s, 10m, 1h30m or 2d", "found \"3600\" (an integer)"]),
        ConfigErrorCase(
            name: "unknown retention key",
            yaml: "project: demo\nretention: {days: 3}\n" + rest,
            line: 2, column: 13, fragments: ["unknown key \"days\" in retention; expected one of: builds, min_age"]),
        ConfigErrorCase(
            name: "size with an unknown unit",
            yaml: "project: demo\nbudgets: {max_bundle_bytes: 5XB}\n" + rest,
            line: 2, column: 29, fragments: ["budgets.max_bundle_bytes must be a size such as 5MB, 512KiB or 1048576 (bytes), found \"5XB\""]),
        ConfigErrorCase(
            name: "unknown budget mode",
            yaml: "project: demo\nbudgets: {max_bundle_bytes: 5MB, mode: loud}\n" + rest,
            line: 2, column: 40, fragments: ["budgets.mode must be one of fail, warn, found \"loud\""]),
        ConfigErrorCase(
            name: "zero bundle budget",
            yaml: "project: demo\n" + rest + "    max_bundle_bytes: 0\n",
            line: 6, column: 23, fragments: ["bundles[0].max_bundle_bytes must be a size", "found \"0\" (an integer)"]),
    ]
}()

@Suite("retention and budget settings")
struct CronConfigTests {
    @Test(arguments: [
        ("5MB", 5_000_000), ("512KiB", 524_288), ("1.5 MB", 1_500_000), ("1048576", 1_048_576), ("2gib", 2_147_483_648),
        ("10k", 10_000), ("100B", 100), ("3 kB", 3_000),
    ])
    func sizes(_ text: String, _ bytes: Int) throws {
        let config = try parseConfig("project: demo\nbudgets: {max_bundle_bytes: \(text)}\ninputs: [d]\nbundles:\n  - id: b\n    documents: [c/a]\n")
        #expect(config.budgets.maxBundleBytes?.bytes == bytes)
        #expect(config.budgets.mode == .fail)
    }

    @Test func defaultsAndOverrides() throws {
        let plain = try parseConfig("project: demo\ninputs: [d]\nbundles:\n  - id: b\n    documents: [c/a]\n")
        #expect(plain.retention == RetentionPolicy(builds: 2, minAge: 3_600))
        #expect(plain.budgets == SizeBudget(maxBundleBytes: nil, mode: .fail))
        #expect(plain.bundles[0].maxBytes == nil)

        let set = try parseConfig("""
            project: demo
            retention: {builds: 0, min_age: 1d12h}
            budgets: {max_bundle_bytes: 1MB, mode: warn}
            inputs: [d]
            bundles:
              - id: a
                documents: [c/a]
                max_bundle_bytes: 2MB
              - id: b
                documents: [c/b]

            """)
        #expect(set.retention == RetentionPolicy(builds: 0, minAge: 129_600))
        #expect(set.budgets.mode == .warn)
        #expect(set.bundles.map { set.budgets.limit(for: $0)?.bytes } == [2_000_000, 1_000_000])
        #expect(set.bundles[0].maxBytes?.location == SourceLocation(file: "pipeline.yml", line: 8, column: 23))
    }

    @Test(arguments: [("90s", Int64(90)), ("10m", 600), ("1h30m", 5_400), ("2d", 172_800), ("1w", 604_800), ("0s", 0)])
    func durations(_ text: String, _ seconds: Int64) throws {
        #expect(RelativeTime.duration(Substring(text)) == seconds)
    }

    @Test(arguments: ["", "1", "h", "1x", "-1h", "1.5h"])
    func malformedDurations(_ text: String) {
        #expect(RelativeTime.duration(Substring(text)) == nil)
    }
}
