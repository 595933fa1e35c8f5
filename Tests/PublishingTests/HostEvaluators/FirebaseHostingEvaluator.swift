import Foundation
import SitePolicy

/// Firebase Hosting reading the `hosting` object of `firebase.json`, after superstatic (the
/// emulator): a path `ignore` matches is not deployed; every `headers` entry whose `regex`
/// is found in the path applies, in order, `setHeader` replacing a field an earlier entry set
/// (`middleware/headers.js`, `utils/patterns.js`). Without Cache-Control Hosting sends its
/// default. The `ignore` globs are read with ``PathPattern``, applied to the path and each of
/// its directories as gitignore does, which agrees with Hosting for the patterns bundlepress
/// writes.
struct FirebaseHostingEvaluator: HostEvaluator {
    static let defaultCacheControl = "max-age=3600"

    let publicDirectory: String
    private let ignored: [PathPattern]
    private let entries: [(regex: NSRegularExpression, fields: [(key: String, value: String)])]

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }

    init(_ bytes: [UInt8]) throws {
        guard let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let hosting = root["hosting"] as? [String: Any],
              let publicDirectory = hosting["public"] as? String,
              let ignore = hosting["ignore"] as? [String],
              let headers = hosting["headers"] as? [[String: Any]]
        else { throw Unexpected(description: "not a hosting object with public, ignore and headers") }
        self.publicDirectory = publicDirectory
        ignored = try ignore.map { try PathPattern($0) }
        entries = try headers.map { entry in
            guard let regex = entry["regex"] as? String, entry["source"] == nil, entry["glob"] == nil,
                  let fields = entry["headers"] as? [[String: String]]
            else { throw Unexpected(description: "an entry without regex or with source/glob: \(entry)") }
            return (try NSRegularExpression(pattern: regex), fields.map { ($0["key"] ?? "", $0["value"] ?? "") })
        }
    }

    func response(forPath path: String) -> HostResponse {
        // Like .gitignore: a pattern that matches a directory leaves out everything in it.
        let names = path.split(separator: "/")
        let pathAndParents = names.indices.map { "/" + names[...$0].joined(separator: "/") }
        if pathAndParents.contains(where: { path in ignored.contains { $0.matches(path) } }) { return .notServed }
        var fields: [String: String] = [:]
        for entry in entries where entry.regex.isFound(in: path) {
            for (key, value) in entry.fields { fields[key.lowercased()] = value }
        }
        if fields["cache-control"] == nil { fields["cache-control"] = Self.defaultCacheControl }
        return .served(fields)
    }
}
