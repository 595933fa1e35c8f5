import SitePolicy

/// The URLs hosts serve a directory's `index.html` at (`/`, `/news/slug/`). `bundlepress serve`
/// applies the policy to the page's file (`/news/slug/index.html`), production hosts match their
/// rules against the URL; so a rule that matches an `index.html` also gets the directory URLs
/// (`*.html` gets `/` and every path ending in `/`).
enum DirectoryIndex {
    /// The page a directory URL serves.
    static let fileName = "index.html"

    /// The directories whose index page `pattern` matches, or nil when it matches no `index.html`
    /// as its last segment (a pattern ending in `**` matches the directory URLs as they are).
    /// The root directory alone is the pattern `/`.
    static func directories(of pattern: PathPattern) -> PathPattern? {
        let segments = pattern.segments.collapsingGlobstars()
        guard let last = segments.last, last != .anyDepth, last.matches(fileName) else { return nil }
        let source = "/" + segments.dropLast().map { segment in
            switch segment {
            case .literal(let name): name
            case .wildcard(let text): text
            case .anyDepth: "**"
            }
        }.joined(separator: "/")
        return try? PathPattern(source)
    }

    /// True when `directories` is every directory, the root included (`**`).
    static func isEveryDirectory(_ directories: PathPattern) -> Bool {
        directories.segments == [.anyDepth]
    }

    /// The `_headers` paths of the directory URLs of `pattern`'s index pages. Both hosts read a
    /// path with or without its final `/` alike (Netlify matches `^/…/?$`), so every directory
    /// cannot be named apart from every path: for `*.html` only `/` is written, and other
    /// directory URLs get the rules that match them as they are (docs/deploying.md).
    static func splatPaths(of pattern: PathPattern) -> [SplatPath] {
        guard let directories = directories(of: pattern) else { return [] }
        if directories.segments.isEmpty || isEveryDirectory(directories) { return [.root] }
        return [SplatPath(directories).directory]
    }

    /// A regex body (``PathRegex``) for the directory URLs of `pattern`'s index pages, or nil.
    static func regexBody(of pattern: PathPattern) -> String? {
        guard let directories = directories(of: pattern) else { return nil }
        if directories.segments.isEmpty { return "/" }
        if isEveryDirectory(directories) { return "(?:/.*)?/" }
        return PathRegex(directories).body + "/"
    }
}
