import Foundation

/// Netlify reading `_headers`, after netlify/build `headers-parser` (`line_parser.ts`: a line
/// without a colon is skipped, a name repeated in a block is joined with ", "; `for_regexp.ts`:
/// `^/…/?$`, case-insensitive, `:name` segments → `([^/]+)`, a `*` segment → `?(.*)`, a `*` in a
/// segment → `(.*)` with the rest of the segment unescaped) and netlify-cli `headersForPath`
/// (every matching rule, `Object.assign`: the last value of a name wins). A response without
/// Cache-Control gets Netlify's default.
struct NetlifyEvaluator: HostEvaluator {
    static let defaultCacheControl = "public, max-age=0, must-revalidate"

    private var rules: [(regex: NSRegularExpression?, values: [(name: String, value: String)])] = []

    init(_ text: String) {
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("/") {
                rules.append((Self.regex(line), []))
            } else if line.contains(":"), !rules.isEmpty {
                let name = line.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces)
                let value = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
                if let index = rules[rules.count - 1].values.firstIndex(where: { $0.name == name }) {
                    rules[rules.count - 1].values[index].value += ", \(value)"
                } else {
                    rules[rules.count - 1].values.append((name, value))
                }
            }
        }
    }

    func response(forPath path: String) -> HostResponse {
        var fields = ["cache-control": Self.defaultCacheControl]
        for rule in rules where rule.regex?.isFound(in: path) == true {
            for (name, value) in rule.values { fields[name.lowercased()] = value }
        }
        return .served(fields)
    }

    private static func regex(_ forPath: String) -> NSRegularExpression? {
        let parts = forPath.split(separator: "/").map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
        let pattern = parts.filter { !$0.isEmpty }.map { part -> String in
            if part.hasPrefix(":") { return "([^/]+)" }
            if part == "*" { return "?(.*)" }
            if part.contains("*") { return part.replacingOccurrences(of: "*", with: "(.*)") }
            return NSRegularExpression.escapedPattern(for: part)
        }.joined(separator: "/")
        return try? NSRegularExpression(pattern: "^/\(pattern)/?$", options: .caseInsensitive)
    }
}
