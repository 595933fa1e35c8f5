import Foundation
import SitePolicy
import Testing
@testable import Hosting
@testable import Publishing

/// The exact files a build writes for the built-in policy, against `Fixtures/Hosting/`: a change
/// to any of them shows here first, to be read and accepted on purpose. Rules for the bundles
/// only, and with `explorer: explorer` for that folder too (`Fixtures/Hosting/explorer/`).
@Suite struct HostingFilesGoldenTests {
    @Test(arguments: [nil, "explorer"], [
        ("_headers", "_headers.txt"),
        (".bundlepress-hosting/firebase-hosting.json", "firebase-hosting.json"),
        (".bundlepress-hosting/nginx.conf", "nginx.conf"),
    ])
    func defaultPolicy(explorer: String?, file: (path: String, golden: String)) throws {
        let policy = HeaderPolicy.default.forProductionHosts(explorer: explorer)
        let written = try #require(HostingFiles(policy: policy, publicDirectory: "site").files.first { $0.path == file.path })
        let folder = explorer.map { "Fixtures/Hosting/\($0)" } ?? "Fixtures/Hosting"
        let url = try #require(Bundle.module.url(forResource: "\(folder)/\(file.golden)", withExtension: nil))
        #expect(String(decoding: written.bytes, as: UTF8.self) == String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }
}
