import Foundation
import SitePolicy

/// Expands `inputs:` patterns: `*`, `?` and `[…]` within a path segment (fnmatch rules, so they
/// never cross '/'), and `**` for any number of directories: the ``GlobSegment`` matcher the
/// header policy uses too. Results are sorted by path (byte order) so builds read files in a
/// deterministic order.
struct FileGlob {
    let pattern: String

    /// Matching regular files, relative patterns resolved against `base`; a pattern without
    /// wildcards may also name a folder (a managed or emulator export).
    func expand(relativeTo base: String) throws -> [String] {
        let absolute = pattern.hasPrefix("/") ? pattern : (base as NSString).appendingPathComponent(pattern)
        let segments = absolute.split(separator: "/", omittingEmptySubsequences: true).map { GlobSegment($0) }
        guard let firstWildcard = segments.firstIndex(where: { !$0.isLiteral }) else {
            return FileManager.default.fileExists(atPath: absolute) ? [absolute] : []
        }
        let root = (absolute.hasPrefix("/") ? "/" : "") + segments[..<firstWildcard].map(\.text).joined(separator: "/")
        var matches: [String] = []
        try walk(directory: root.isEmpty ? "." : root, remaining: Array(segments[firstWildcard...]), into: &matches)
        return Array(Set(matches)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func walk(directory: String, remaining: [GlobSegment], into matches: inout [String]) throws {
        guard let segment = remaining.first else { return }
        let rest = Array(remaining.dropFirst())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if segment == .anyDepth {
            // Zero directories…
            try walk(directory: directory, remaining: rest, into: &matches)
            // …or one more, keeping the `**`.
            for entry in entries where !entry.hasPrefix(".") && isDirectory(join(directory, entry)) {
                try walk(directory: join(directory, entry), remaining: remaining, into: &matches)
            }
            return
        }
        for entry in entries where segment.matches(entry) {
            let path = join(directory, entry)
            if rest.isEmpty {
                if !isDirectory(path) { matches.append(path) }
            } else if isDirectory(path) {
                try walk(directory: path, remaining: rest, into: &matches)
            }
        }
    }

    private func join(_ directory: String, _ entry: String) -> String {
        directory == "." ? entry : (directory as NSString).appendingPathComponent(entry)
    }

    private func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
