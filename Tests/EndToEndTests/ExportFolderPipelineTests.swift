import Foundation
import Testing

/// `examples/managed-export.yml` and `examples/emulator-export.yml`: bundles built straight from
/// a managed export and from Emulator Suite data (the ExportReader fixtures), and `convert`.
@Suite("Managed and emulator exports end to end")
struct ExportFolderPipelineTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/ExportReaderTests/Fixtures/managed-export").path

    /// A scratch folder for a site or converted files.
    static func scratch(_ label: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ExportFolderPipeline-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test(arguments: ["managed-export", "emulator-export"])
    func buildVerifyAndSnapshotTimeFromTheExport(example: String) throws {
        let directory = try Self.scratch(example)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = repositoryRoot.appendingPathComponent("examples/\(example).yml").path
        let build = try runBundlepress(["build", "-c", config, "-o", "site"], in: directory)
        #expect(build.status == 0, "\(build)")
        #expect(build.stdout.contains("snapshot 2026-01-02T03:04:05.123456000Z"), "the export's own time: \(build)")
        let verify = try runBundlepress(["verify", "site"], in: directory)
        #expect(verify.status == 0, "\(verify)")
        let bundles = try FileManager.default.contentsOfDirectory(atPath: directory + "/site/bundles").filter { $0.hasSuffix(".bundle") }
        #expect(!bundles.isEmpty)
        #expect(verify.stdout == "\(bundles.count) bundle\(bundles.count == 1 ? "" : "s") ok, 0 with problems\n", "\(verify)")
        for bundle in bundles {
            let inspect = try runBundlepress(["inspect", "site/bundles/\(bundle)"], in: directory)
            #expect(inspect.stdout.contains("createTime      2026-01-02T03:04:05.123456000Z"), "\(inspect)")
        }
    }

    @Test func snapshotTimeInTheConfigWins() throws {
        let directory = try Self.scratch("snapshot")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("""
            project: demo
            previous: none
            snapshot_time: 2026-02-01T00:00:00Z
            inputs: ["\(Self.fixtures)/managed"]
            bundles:
              - id: cities
                queries:
                  all-cities: {collection: cities}
            """.utf8).write(to: URL(fileURLWithPath: directory + "/pipeline.yml"))
        let build = try runBundlepress(["build"], in: directory)
        #expect(build.status == 0, "\(build)")
        #expect(build.stdout.contains("snapshot 2026-02-01T00:00:00.000000000Z"), "\(build)")
        // The export folder counts as its three output-N files, and their bytes.
        let report = try runBundlepress(["build", "--dry-run", "--json"], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any], "\(report)")
        let data = (0...2).map { "\(Self.fixtures)/managed/all_namespaces/all_kinds/output-\($0)" }
        let bytes = try data.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0) }
        #expect(json["inputFiles"] as? Int == 3 && json["inputBytes"] as? Int == bytes, "\(json)")
    }

    @Test func convertWritesSortedRESTNDJSON() throws {
        let directory = try Self.scratch("convert")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let convert = try runBundlepress(["convert", "\(Self.fixtures)/managed", "--project", "demo", "-o", "out.ndjson"], in: directory)
        #expect(convert.status == 0, "\(convert)")
        let lines = try String(contentsOfFile: directory + "/out.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines.first?.hasPrefix(#"{"name":"projects/demo/databases/(default)/documents/big/spanning","#) == true)

        let roundTrip = try runBundlepress(["convert", "out.ndjson", "--format", "rest-ndjson", "--project", "demo"], in: directory)
        #expect(roundTrip.status == 0, "\(roundTrip)")
        #expect(roundTrip.stdout == lines.joined(separator: "\n") + "\n", "converting the output again changes nothing")
    }

    @Test func convertReportsWhereAnExportIsBroken() throws {
        let folder = "\(Self.fixtures)/broken/bad-checksum"
        let convert = try runBundlepress(["convert", folder, "--project", "demo"], in: Self.fixtures)
        #expect(convert.status == 65, "\(convert)")
        #expect(convert.stderr.contains("\(folder)/all_namespaces/all_kinds/output-0 at byte 82: checksum mismatch"), "\(convert)")
    }

    @Test func convertRejectsMalformedHints() throws {
        let convert = try runBundlepress(["convert", "x.json", "--project", "demo", "--hints", "colours=x"], in: Self.fixtures)
        #expect(convert.status == 64, "\(convert)")
        #expect(convert.stderr.contains("expected KIND=FIELD"), "\(convert)")
    }
}
