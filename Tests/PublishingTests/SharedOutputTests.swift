import Foundation
import Testing
@testable import Publishing

/// SmallSite written into a fresh temporary directory (removed after `body`), and its config's path.
private func withSmallSite(_ body: (TemporaryDirectory, String) throws -> Void) throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try body(dir, try SmallSite.write(into: dir))
}

/// An output folder shared with another tool (a site generator's `public/`): BundlePress never
/// replaces or deletes a file it did not write.
@Suite("An output folder shared with a site generator")
struct SharedOutputTests {
    @Test func aFileInTheWayOfOneBundlePressWritesFailsTheBuildAndStays() throws {
        try withSmallSite { dir, config in
            let theirs = try dir.write("site/bundles/manifest.json", "{\"their\": \"manifest\"}")
            guard case .publish(let publish) = try #require(buildError(config: config)) else {
                Issue.record("not a publish error")
                return
            }
            #expect(publish.path == theirs)
            #expect(publish.message.contains("did not write") && publish.message.contains("move the file away"))
            #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "{\"their\": \"manifest\"}")
        }
    }

    @Test func aFileBundlePressWroteIsReplaced() throws {
        try withSmallSite { dir, config in
            let first = try build(config: config)
            try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
            let second = try build(config: config)
            #expect(second.manifestChanged && second.bundles[0].file != first.bundles[0].file)
        }
    }
}
