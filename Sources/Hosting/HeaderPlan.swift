import SitePolicy

/// A ``HeaderPolicy`` as the hosting renderers read it: every rule in the order the server tries
/// them (first match wins), each named the way pipeline.yml names it for warnings, the CORS
/// patterns and fields, and the fields every response gets.
struct HeaderPlan {
    /// One rule of ``SitePolicy/HeaderPolicy/allRules``.
    struct Rule {
        /// `headers[1] "/assets/**"` for a site rule, `built-in "*.html"` for a default one.
        let label: String
        let pattern: PathPattern
        let fields: [HeaderField]

        /// The value of the field `name` (any case) this rule sets, or nil.
        func value(of name: String) -> String? {
            fields.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// A pattern of `cors.paths` or of the paths that get the common fields, with its label
    /// (`cors.paths[0] "/bundles/**"`, `every response in "/bundles/**"`).
    struct LabelledPattern {
        let label: String
        let pattern: PathPattern
    }

    /// A field a host that applies every matching rule, and cannot remove a field, sends on
    /// paths that `rule` decides although `rule` does not set it: later rules that may match
    /// the same paths set it.
    struct Leak {
        let rule: Rule
        let fieldName: String
        /// The later rules that set the field, in order.
        let sources: [Rule]
    }

    /// The rules that decide some path: a rule whose paths an earlier one all takes (a site
    /// rule `/bundles/**` before the built-in bundle rules) is left out.
    let rules: [Rule]
    let corsPatterns: [LabelledPattern]
    /// The CORS response fields, empty when the policy has no CORS.
    let corsFields: [HeaderField]
    /// ``SitePolicy/HeaderPolicy/commonFields``.
    let commonFields: [HeaderField]
    /// ``SitePolicy/HeaderPolicy/commonFieldPatterns``: `every response` for every path, else
    /// the folders a build writes.
    let commonPatterns: [LabelledPattern]
    /// Every field that leaks into an earlier rule's paths on a host that applies all matching
    /// rules, the last one winning per field, and cannot remove a field. (The built-in `/**`
    /// rule sets Cache-Control, so a rule without it gets one from there where the policy has
    /// it.) Found once, for the renderers of both such hosts.
    let leaks: [Leak]

    init(_ policy: HeaderPolicy) {
        let all = policy.allRules
        rules = all.indices.compactMap { index in
            let rule = all[index]
            guard !all[..<index].contains(where: { rule.pattern.isCovered(by: $0.pattern) }) else { return nil }
            let label = index < policy.rules.count ? "headers[\(index)] \"\(rule.pattern.source)\"" : Self.builtInLabel(rule.pattern)
            return Rule(label: label, pattern: rule.pattern, fields: rule.fields)
        }
        corsPatterns = (policy.cors?.paths ?? []).enumerated().map { index, pattern in
            LabelledPattern(label: "cors.paths[\(index)] \"\(pattern.source)\"", pattern: pattern)
        }
        corsFields = policy.cors?.responseFields ?? []
        commonFields = HeaderPolicy.commonFields
        commonPatterns = policy.commonFieldPatterns.map { pattern in
            LabelledPattern(label: pattern == HeaderPolicy.everyPathPattern ? "every response" : "every response in \"\(pattern.source)\"", pattern: pattern)
        }
        leaks = Self.leaks(among: rules)
    }

    /// `built-in "<pattern>"`, with the sixteen `[0-9a-f]` of the content-hash patterns told in words.
    private static func builtInLabel(_ pattern: PathPattern) -> String {
        switch pattern {
        case HeaderPolicy.contentHashedBundlePattern: "built-in \"/bundles/<id>.<16 hex digits>.bundle\""
        case HeaderPolicy.contentHashedSnapshotPattern: "built-in \"/bundles/snapshots/<name>.<16 hex digits>.json\""
        default: "built-in \"\(pattern.source)\""
        }
    }

    private static func leaks(among rules: [Rule]) -> [Leak] {
        var leaks: [Leak] = []
        for (index, rule) in rules.enumerated() {
            let overlapping = rules[(index + 1)...].filter { $0.pattern.mayOverlap(with: rule.pattern) }
            var names: [String] = []
            for field in overlapping.flatMap(\.fields) where rule.value(of: field.name) == nil && !names.contains(field.name.lowercased()) {
                names.append(field.name.lowercased())
                leaks.append(Leak(rule: rule, fieldName: field.name, sources: overlapping.filter { $0.value(of: field.name) != nil }))
            }
        }
        return leaks
    }

    /// How fields sent on the paths of `patterns` (CORS, the common fields) apply to the paths
    /// of `rule`, as far as the patterns tell.
    func coverage(of rule: Rule, by patterns: [LabelledPattern]) -> Coverage {
        if patterns.contains(where: { rule.pattern.isCovered(by: $0.pattern) }) { return .all }
        if patterns.contains(where: { rule.pattern.mayOverlap(with: $0.pattern) }) { return .some }
        return .none
    }

    /// Whether fields sent by their own patterns apply to every path of a rule, to none, or
    /// possibly to some.
    enum Coverage {
        case all, some, none
    }
}
