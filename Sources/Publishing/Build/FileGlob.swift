import Foundation

/// Expands `inputs:` patterns: `*`, `?` and `[…]` within a path segment (fnmatch rules, so they
/// never cross '/'), and `**` for any number of directories. Results are sorted by path
/// (byte order) so builds read files in a deterministic order.
struct FileGlob {
    let pattern: String

    /// Matching regular files, relative patterns resolved against `base`.
    func expand(relativeTo base: String) throws -> [String] {
        let absolute = pattern.hasPrefix("/") ? pattern : (base as NSString).appendingPathComponent(pattern)
        let segments = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let firstWildcard = segments.firstIndex(where: Self.hasWildcard) else {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && !isDirectory.boolValue ? [absolute] : []
        }
        let root = (absolute.hasPrefix("/") ? "/" : "") + segments[..<firstWildcard].joined(separator: "/")
        var matches: [String] = []
        try walk(directory: root.isEmpty ? "." : root, remaining: Array(segments[firstWildcard...]), into: &matches)
        return Array(Set(matches)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func hasWildcard(_ segment: String) -> Bool {
        segment.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    private func walk(directory: String, remaining: [String], into matches: inout [String]) throws {
        guard let segment = remaining.first else { return }
        let rest = Array(remaining.dropFirst())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if segment == "**" {
            // Zero directories…
            try walk(directory: directory, remaining: rest, into: &matches)
            // …or one more, keeping the `**`.
            for entry in entries where !entry.hasPrefix(".") && isDirectory(join(directory, entry)) {
                try walk(directory: join(directory, entry), remaining: remaining, into: &matches)
            }
            return
        }
        for entry in entries where fnmatch(segment, entry, FNM_PERIOD) == 0 {
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
