import SitePolicy

/// A ``PathPattern`` as a `_headers` path that Netlify and Cloudflare Pages read alike: literal
/// segments, `:name` placeholders (one whole segment) and at most one `*` splat, which matches
/// any run of characters, `/` included.
///
/// Cloudflare Pages turns `*` into `.*` (a second `*` makes the rule invalid) and `:name` into
/// `[^/]+`; Netlify turns a `*` segment into `/?(.*)`, a `*` inside a segment into `(.*)` and a
/// segment starting with `:` into `([^/]+)`. The path always matches every path the pattern
/// matches (file paths without `.` segments); ``isExact`` says whether it matches more.
struct SplatPath {
    /// The path as written in `_headers`.
    let text: String
    /// False when the path also matches paths the pattern does not: `?` and `[…]` have no
    /// equivalent, and a splat that is not behind a `**` reaches into subdirectories.
    let isExact: Bool

    init(_ pattern: PathPattern) {
        let segments = pattern.segments.collapsingGlobstars()
        var parts: [String] = []
        var isExact = true
        var placeholders = 0
        func placeholder() -> String {
            placeholders += 1
            return ":p\(placeholders)"
        }
        segmentLoop: for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let name):
                parts.append(name)
                isExact = isExact && Self.isPlain(Array(name.utf8))
            case .wildcard(let text):
                let tokens = GlobToken.parse(text)
                if let tokens, tokens.allSatisfy({ $0 == .anyRun }) {
                    parts.append(placeholder())
                    continue
                }
                isExact = false
                guard index == segments.count - 1 else {
                    parts.append(placeholder())
                    continue
                }
                parts.append(Self.splat(tokens ?? [.anyRun]))
            case .anyDepth:
                // The splat stands for the rest of the path and keeps the literal end of its
                // last segment: `**/*.html` is `/*.html`, exactly; `**/a/*.json` is `/*.json`.
                let rest = segments[(index + 1)...]
                let suffix = rest.last.map(Self.literalEnd) ?? []
                parts.append("*" + String(decoding: suffix, as: UTF8.self))
                isExact = isExact && Self.isPlain(suffix) && (rest.isEmpty || Self.isStarThenLiterals(rest))
                break segmentLoop
            }
        }
        self.text = "/" + parts.joined(separator: "/")
        self.isExact = isExact
    }

    private init(text: String, isExact: Bool) {
        self.text = text
        self.isExact = isExact
    }

    /// The site root's path, `/`.
    static let root = SplatPath(text: "/", isExact: true)

    /// The path with a `/` after it: the directory URLs of the directories it names.
    var directory: SplatPath { SplatPath(text: text + "/", isExact: isExact) }

    /// A last segment with wildcards as its literal start, one splat, and its literal end.
    private static func splat(_ tokens: [GlobToken]) -> String {
        let tokens = starsAsWildcards(tokens)
        return String(decoding: GlobToken.literalPrefix(tokens) + Array("*".utf8) + GlobToken.literalSuffix(tokens), as: UTF8.self)
    }

    /// The bytes every name a segment matches ends with, short of a literal `*`.
    private static func literalEnd(_ segment: GlobSegment) -> [UInt8] {
        switch segment {
        case .literal(let name): return Array(name.utf8)
        case .wildcard(let text): return GlobToken.parse(text).map { GlobToken.literalSuffix(starsAsWildcards($0)) } ?? []
        case .anyDepth: return []
        }
    }

    /// `_headers` has no way to write a literal `*` (`\*` in a glob), so it counts as a wildcard.
    private static func starsAsWildcards(_ tokens: [GlobToken]) -> [GlobToken] {
        tokens.map { $0 == .literal(UInt8(ascii: "*")) ? .anyRun : $0 }
    }

    /// True for a single segment `*` followed by literal bytes only (`*.html`).
    private static func isStarThenLiterals(_ segments: ArraySlice<GlobSegment>) -> Bool {
        guard segments.count == 1, case .wildcard(let text)? = segments.first, let tokens = GlobToken.parse(text) else { return false }
        return tokens.first == .anyRun && tokens.dropFirst().allSatisfy { $0.literalByte != nil }
    }

    /// Bytes both hosts take literally: letters, digits and `-._~`. (Netlify reads a `.` next
    /// to a `*` as any character; the README says so rather than every build warning about it.)
    private static func isPlain(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || Array("-._~".utf8).contains(byte)
        }
    }
}
