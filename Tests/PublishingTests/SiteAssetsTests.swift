import Foundation
import Testing
@testable import Publishing

@Suite("Site assets: the explorer page and bundlepress.js in every output directory")
struct SiteAssetsTests {
    /// The repository's `site/` (this file is Tests/PublishingTests/SiteAssetsTests.swift).
    static let siteSource = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("site").path

    @Test func embedsEveryFileOfSiteByteForByte() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.siteSource)
            .filter { !$0.hasPrefix(".") && ["html", "js", "css"].contains(($0 as NSString).pathExtension) }
            .sorted()
        #expect(SiteAssets.files.map(\.name) == names)
        #expect(names.contains("index.html") && names.contains("bundlepress.js"))
        for file in SiteAssets.files {
            let source = try Data(contentsOf: URL(fileURLWithPath: (Self.siteSource as NSString).appendingPathComponent(file.name)))
            #expect(Array(file.contents.utf8) == Array(source), "the embedded \(file.name) differs from site/\(file.name)")
        }
    }

    @Test func installsWhatIsMissingAndKeepsWhatIsThere() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("out/index.html", "<p>my own page</p>")

        let written = try SiteAssets.installMissing(in: dir.file("out"))
        #expect(written == SiteAssets.files.map(\.name).filter { $0 != "index.html" })
        #expect(try String(contentsOfFile: dir.file("out/index.html"), encoding: .utf8) == "<p>my own page</p>")
        for file in SiteAssets.files where file.name != "index.html" {
            #expect(try String(contentsOfFile: dir.file("out/\(file.name)"), encoding: .utf8) == file.contents)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).filter { $0.hasPrefix(".") } == [])
        #expect(try SiteAssets.installMissing(in: dir.file("out")) == [])
    }

    @Test func outputDirectoryThatIsAFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let blocker = try dir.write("out", "not a directory")
        #expect {
            try SiteAssets.installMissing(in: blocker)
        } throws: { error in
            let publish = try #require(error as? PublishError)
            return publish.path == blocker && publish.message.hasPrefix("cannot create the output directory")
        }
    }

    @Test func buildGivesAnyOutputDirectoryTheExplorer() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config, output: dir.file("elsewhere"))
        let files = try TemporaryDirectory(existing: dir.file("elsewhere")).snapshot()
        for file in SiteAssets.files {
            #expect(files[file.name] == Data(file.contents.utf8), "\(file.name) is not in the output directory")
        }
        #expect(files["bundles/manifest.json"] != nil)
    }
}
