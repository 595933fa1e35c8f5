import Testing
@testable import Hosting

@Suite("BundlePress's marked block in a file the site shares (_headers)")
struct MarkedBlockTests {
    static let block = "/bundles/*\n  Access-Control-Allow-Origin: *\n"
    static let marked = "\(MarkedBlock.startLine)\n\(block)\(MarkedBlock.endLine)\n"

    @Test func noFileIsTheBlockAlone() throws {
        #expect(try MarkedBlock.placing(Self.block, in: nil) == Self.marked)
        #expect(try MarkedBlock.placing(Self.block, in: "") == Self.marked)
    }

    @Test func theSiteRulesStayAndTheBlockIsAppended() throws {
        let site = "/*\n  X-Frame-Options: DENY\n  Content-Security-Policy: default-src 'self'\n"
        #expect(try MarkedBlock.placing(Self.block, in: site) == site + "\n" + Self.marked)
        #expect(try MarkedBlock.placing(Self.block, in: "/*\n  X-Frame-Options: DENY") == "/*\n  X-Frame-Options: DENY\n\n" + Self.marked)
    }

    @Test func theBlockIsReplacedInPlace() throws {
        let before = "# mine\n/*\n  X-Frame-Options: DENY\n\n"
        let after = "\n/news/*\n  Cache-Control: no-cache\n"
        let old = before + "\(MarkedBlock.startLine)\n/old\n  X-Old: 1\n\(MarkedBlock.endLine)\n" + after
        let placed = try MarkedBlock.placing(Self.block, in: old)
        #expect(placed == before + Self.marked + after)
        #expect(try MarkedBlock.placing(Self.block, in: placed) == placed)
        // A CRLF file's markers are found too; the site's lines keep their endings.
        let crlf = "/*\r\n  X-A: 1\r\n\(MarkedBlock.startLine)\r\n/old\r\n\(MarkedBlock.endLine)\r\n"
        #expect(try MarkedBlock.placing(Self.block, in: crlf) == "/*\r\n  X-A: 1\r\n" + Self.marked)
    }

    @Test func aFileAnOlderBundlePressWroteWholeIsReplaced() throws {
        let old = "\(MarkedBlock.wholeFilePrefix) from the headers: and cors: settings in pipeline.yml;\n/*\n  X-Old: 1\n"
        #expect(try MarkedBlock.placing(Self.block, in: old) == Self.marked)
    }

    @Test func aStartWithoutAnEndIsRefused() {
        #expect(throws: MarkedBlock.Unterminated(line: 3)) {
            try MarkedBlock.placing(Self.block, in: "/*\n  X-A: 1\n\(MarkedBlock.startLine)\n/old\n")
        }
    }
}
