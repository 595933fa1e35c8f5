import Foundation
import Testing
@testable import Publishing

@Suite("Site assets: bundlepress.js in every output directory, the explorer page where the config asks")
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

    @Test func productionOutputHoldsTheLoaderAndNoExplorer() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config, output: dir.file("elsewhere"))
        let files = try TemporaryDirectory(existing: dir.file("elsewhere")).snapshot()
        let loader = try #require(SiteAssets.files.first { $0.name == "bundlepress.js" })
        #expect(files["bundles/bundlepress.js"] == Data(loader.contents.utf8))
        #expect(files.keys.filter { !$0.hasPrefix("bundles/") && !$0.hasPrefix(".") && $0 != "_headers" } == [])
    }

    @Test(arguments: [("explorer/", "explorer/", "../"), (".", "", ""), ("tools/data/", "tools/data/", "../../")])
    func explorerGoesWhereTheConfigSays(_ setting: String, _ folder: String, _ up: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "explorer: \(setting)\n" + SmallSite.config)
        _ = try build(config: config)
        let files = try TemporaryDirectory(existing: dir.file("site")).snapshot()
        for file in SiteAssets.files where file.name != "index.html" {
            #expect(files[folder + file.name] == Data(file.contents.utf8), "\(file.name) is not in \(folder)")
        }
        let page = try #require(files[folder + "index.html"].map { String(decoding: $0, as: UTF8.self) })
        #expect(page.contains(#"<meta name="bundlepress-manifest" content="\#(up)bundles/manifest.json">"#))
        #expect(files["bundles/bundlepress.js"] != nil)
    }
}
