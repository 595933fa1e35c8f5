import JSONCore
import SitePolicy

/// The `hosting` part of a `firebase.json`, to merge into the project's own (or to use as its
/// `firebase.json` when it has nothing else).
///
/// Hosting applies every `headers` entry whose pattern matches, in order, a later entry
/// replacing a field an earlier one set (superstatic, the emulator, calls `setHeader` per
/// entry; firebase-tools#8917 and #9467 report the same of production). So the rules are
/// written in reverse, the catch-all first, each as an anchored RE2 `regex`. Hosting cannot
/// remove a field, so a rule gets the fields of later matching rules that it does not set
/// itself; the build warns where that may happen.
struct FirebaseHostingFragment {
    /// Where the build writes it, in the output directory; dot directories are not deployed.
    static let path = ".bundlepress-hosting/firebase-hosting.json"
    /// Files Hosting must not upload: its defaults, the gzip sidecars (Hosting compresses by
    /// itself and would serve them as files) and the `_headers` file of the other hosts.
    static let ignore = ["firebase.json", "**/.*", "**/node_modules/**", "**/*.gz", "_headers"]

    /// One `headers` entry.
    private struct Entry {
        var regex: String
        var fields: [HeaderField]
    }

    let bytes: [UInt8]
    let warnings: [HostingWarning]

    /// - Parameter publicDirectory: the site directory as `firebase.json` names it, relative to
    ///   the Firebase project directory.
    init(plan: HeaderPlan, publicDirectory: String) {
        var warnings: [HostingWarning] = []
        // The fields every response in the common patterns gets (`^/.*$`: every path), first.
        var entries = plan.commonPatterns.isEmpty
            ? [] : [Entry(regex: "^\(PathRegex.alternation(plan.commonPatterns.map { PathRegex($0.pattern) }))$", fields: plan.commonFields)]
        for rule in plan.rules.reversed() {
            let regex = PathRegex(rule.pattern, label: rule.label, file: Self.path, host: .firebaseHosting, warnings: &warnings)
            // With the directory URLs Hosting serves the rule's index pages at.
            let anchored = DirectoryIndex.regexBody(of: rule.pattern).map { "^(?:\(regex.body)|\($0))$" } ?? regex.anchored
            entries.append(Entry(regex: anchored, fields: rule.fields))
        }
        warnings += plan.leaks.map { .leak($0, file: Self.path, hosts: [.firebaseHosting]) }
        if !plan.corsPatterns.isEmpty {
            let regexes = plan.corsPatterns.map { cors in
                PathRegex(cors.pattern, label: cors.label, file: Self.path, host: .firebaseHosting, warnings: &warnings)
            }
            entries.append(Entry(regex: "^\(PathRegex.alternation(regexes))$", fields: plan.corsFields))
        }
        self.bytes = Array(Self.render(publicDirectory: publicDirectory, entries: Self.coalesced(entries)).utf8)
        self.warnings = warnings
    }

    /// The entries with neighbours of the same regex joined (the catch-all and the common fields).
    private static func coalesced(_ entries: [Entry]) -> [Entry] {
        var result: [Entry] = []
        for entry in entries {
            if result.last?.regex == entry.regex {
                result[result.count - 1].fields += entry.fields
            } else {
                result.append(entry)
            }
        }
        return result
    }

    /// The JSON, laid out like the examples in Firebase's documentation.
    private static func render(publicDirectory: String, entries: [Entry]) -> String {
        let headers = entries.map { entry in
            let fields = entry.fields.map { "          {\"key\": \(json($0.name)), \"value\": \(json($0.value))}" }
            return "      {\n        \"regex\": \(json(entry.regex)),\n        \"headers\": [\n\(fields.joined(separator: ",\n"))\n        ]\n      }"
        }
        return """
            {
              "hosting": {
                "public": \(json(publicDirectory)),
                "ignore": [\(ignore.map(json).joined(separator: ", "))],
                "headers": [
            \(headers.joined(separator: ",\n"))
                ]
              }
            }

            """
    }

    /// A JSON string literal (ASCII, escaped by ``JSONCore/JSONWriter``).
    private static func json(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
