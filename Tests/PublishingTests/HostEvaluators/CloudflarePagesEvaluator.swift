import Foundation

/// Cloudflare Pages reading `_headers`, after workers-sdk: `parseHeaders.ts` (lines, `! Name`
/// detach, lowercased names, values of a name repeated in a block joined), `constructHeaders`
/// (rules keyed by path: a repeated path keeps its first position and its last fields),
/// `rulesEngine.ts` (`*` → `.*`, `:name` → `[^/]+`, anchored; an invalid expression drops the
/// rule) and the asset handler (the default Cache-Control, then every matching rule in order:
/// detach, then set or, for a field set before, append).
struct CloudflarePagesEvaluator: HostEvaluator {
    static let defaultCacheControl = "public, max-age=0, must-revalidate"

    private struct Rule {
        var set: [(name: String, value: String)] = []
        var unset: [String] = []
    }

    private var paths: [String] = []
    private var rules: [String: Rule] = [:]

    init(_ text: String) {
        var current: (path: String, rule: Rule)?
        func finish() {
            guard let (path, rule) = current else { return }
            if rules[path] == nil { paths.append(path) }
            rules[path] = rule
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("/") {
                finish()
                current = (line, Rule())
            } else if !line.contains(":") {
                if line.hasPrefix("! ") { current?.rule.unset.append(String(line.dropFirst(2))) }
            } else {
                let name = line.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces).lowercased()
                let value = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
                if let index = current?.rule.set.firstIndex(where: { $0.name == name }) {
                    current?.rule.set[index].value += ", \(value)"
                } else {
                    current?.rule.set.append((name, value))
                }
            }
        }
        finish()
    }

    func response(forPath path: String) -> HostResponse {
        var fields = ["cache-control": Self.defaultCacheControl]
        var setByRules: Set<String> = []
        for rulePath in paths {
            guard let rule = rules[rulePath], let regex = Self.regex(rulePath), regex.isFound(in: path) else { continue }
            for name in rule.unset { fields[name.lowercased()] = nil }
            for (name, value) in rule.set {
                if setByRules.contains(name), let existing = fields[name] {
                    fields[name] = "\(existing), \(value)"
                } else {
                    fields[name] = value
                    setByRules.insert(name)
                }
            }
        }
        return .served(fields)
    }

    private static func regex(_ rulePath: String) -> NSRegularExpression? {
        var pattern = rulePath.split(separator: "*", omittingEmptySubsequences: false).map { part in
            String(part).replacingOccurrences(of: #"[-/\\^$*+?.()|\[\]{}]"#, with: #"\\$0"#, options: .regularExpression)
        }.joined(separator: "(?<splat>.*)")
        pattern = pattern.replacingOccurrences(of: #":([A-Za-z]\w*)"#, with: "(?<$1>[^/]+)", options: .regularExpression)
        return try? NSRegularExpression(pattern: "^\(pattern)$")
    }
}
