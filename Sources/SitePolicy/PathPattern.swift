/// A glob over site paths, as used by header rules (`/bundles/**`, `*.html`, `/bundles/*.json`).
///
/// Syntax, segment by segment (see ``GlobSegment``): `*`, `?` and `[…]` match within one
/// segment, `**` matches any number of segments (including none). A pattern that starts with
/// `/` is anchored at the site root; one that does not matches at any depth, as if it started
/// with `/**/` (so `*.html` matches `/index.html` and `/docs/a.html`). Empty segments and a
/// trailing `/` are ignored, so `/bundles/` and `/bundles` are the same pattern.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written in the config.
    public let source: String
    /// The segments after anchoring (a relative pattern starts with ``GlobSegment/anyDepth``).
    public let segments: [GlobSegment]

    /// Parses a pattern.
    ///
    /// - Throws: ``PathPatternError`` when the pattern is empty, contains a NUL or a control
    ///   character, or uses `**` inside a segment (`a**`), where it would only mean `*`.
    public init(_ source: String) throws(PathPatternError) {
        guard !source.isEmpty else { throw .empty }
        if source.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .controlCharacter(pattern: source)
        }
        let parts = source.split(separator: "/", omittingEmptySubsequences: true)
        if let bad = parts.first(where: { $0 != "**" && $0.contains("**") }) {
            throw .globstarInsideSegment(pattern: source, segment: String(bad))
        }
        var segments = parts.map { GlobSegment($0) }
        if !source.hasPrefix("/") && segments.first != .anyDepth {
            segments.insert(.anyDepth, at: 0)
        }
        self.source = source
        self.segments = segments
    }

    /// Whether the site path `path` (for example `/bundles/a.bundle`) matches.
    public func matches(_ path: String) -> Bool {
        let names = path.split(separator: "/", omittingEmptySubsequences: true)
        return Self.match(segments[...], names[...])
    }

    private static func match(_ pattern: ArraySlice<GlobSegment>, _ names: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return names.isEmpty }
        if first == .anyDepth {
            var rest = names
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let name = names.first, first.matches(name) else { return false }
        return match(pattern.dropFirst(), names.dropFirst())
    }

    public var description: String { source }
}
