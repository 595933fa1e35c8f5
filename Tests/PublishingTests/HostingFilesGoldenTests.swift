import Foundation
import SitePolicy
import Testing
@testable import Hosting
@testable import Publishing

/// The exact files a build writes for the built-in policy, against `Fixtures/Hosting/`: a change
/// to any of them shows here first, to be read and accepted on purpose.
@Suite struct HostingFilesGoldenTests {
    @Test(arguments: [
        ("_headers", "_headers.txt"),
        (".bundlepress-hosting/firebase-hosting.json", "firebase-hosting.json"),
        (".bundlepress-hosting/nginx.conf", "nginx.conf"),
    ])
    func defaultPolicy(path: String, golden: String) throws {
        let file = try #require(HostingFiles(policy: .default, publicDirectory: "site").files.first { $0.path == path })
        let url = try #require(Bundle.module.url(forResource: "Fixtures/Hosting/\(golden)", withExtension: nil))
        #expect(String(decoding: file.bytes, as: UTF8.self) == String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }
}
