/// `_redirects` rules that serve a URL with a query string from a static file: Netlify's query
/// parameter matching (`/bundles/by-city  city=:v0  /bundles/by-city/city/:v0  200`, a rewrite
/// that keeps the URL). The build writes them for the extension's `/bundles/<specId>?param=value`
/// URLs, whose bundles it publishes at `<path>/<param>/<value>…`, parameters in name order.
///
/// `_redirects` may hold the site's own rules (a site generator's, or the user's), so the rules
/// are a ``MarkedBlock``, replaced where it is at each build, and everything outside it is kept.
/// A file without the block gets it at the top: Netlify applies the first rule that matches, and
/// a site's catch-all rewrite, often last, would otherwise take the URLs.
public struct NetlifyQueryRedirects: Sendable, Equatable {
    /// Where Netlify looks for it: the publish directory's root.
    public static let path = "_redirects"

    /// The rules, one line each; a mapping whose path or parameter names a `_redirects` line
    /// cannot hold (white space, `=`, `:`, `#` or `%`) is left out, with a comment saying so.
    public let lines: [String]

    /// The rules for `mappings`, in their order: each a URL path, `/`-rooted (`/bundles/by-city`),
    /// and the query parameters a request must carry, in the order of the stable path's segments.
    public init(mappings: [(path: String, parameters: [String])]) {
        lines = mappings.map { mapping in
            let words = [mapping.path] + mapping.parameters
            guard mapping.parameters.allSatisfy(Self.isPlainName), words.allSatisfy(Self.isPlainWord) else {
                return "# \(Self.commentSafe(mapping.path)): a parameter name that _redirects cannot match; use the path form"
            }
            let query = mapping.parameters.enumerated().map { "\($0.element)=:v\($0.offset)" }
            let target = mapping.parameters.enumerated().map { "/\($0.element)/:v\($0.offset)" }.joined()
            return ([mapping.path] + query + [mapping.path + target, "200"]).joined(separator: "  ")
        }
    }

    /// The file's text with the rules in its block (`existing`, nil: no file), or without the
    /// block when there are no rules; nil when there is to be no file (no rules, and the file
    /// held only the block).
    public func placed(in existing: String?) throws(MarkedBlock.Unterminated) -> String? {
        lines.isEmpty ? try MarkedBlock.removing(from: existing) : try MarkedBlock.placing(lines.map { $0 + "\n" }.joined(), in: existing, newAt: .start)
    }

    /// A query parameter's name as a `_redirects` line can match it.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) }
    }

    /// A word of a `_redirects` line: no white space, and none of the characters its syntax uses.
    private static func isPlainWord(_ word: String) -> Bool {
        !word.isEmpty && !word.unicodeScalars.contains { $0.properties.isWhitespace || "=:#%".unicodeScalars.contains($0) }
    }

    private static func commentSafe(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
