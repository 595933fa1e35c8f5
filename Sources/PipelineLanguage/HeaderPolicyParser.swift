import SitePolicy

/// Reads the `headers:` and `cors:` sections of pipeline.yml into a ``HeaderPolicy``, with
/// errors at the YAML line and column of the offending pattern, name or value.
///
/// ```yaml
/// headers:                      # first matching rule wins; the built-in defaults come after
///   - source: "/bundles/**"
///     headers: { Cache-Control: "public, max-age=600" }
/// cors:                         # or `cors: false` for no CORS fields
///   allow_origin: "https://app.example.com"   # default "*"
///   paths: ["/bundles/**"]                    # the default
/// ```
enum HeaderPolicyParser {
    /// The keys of a `headers:` rule and of `cors:`.
    static let ruleKeys = ["source", "headers"]
    static let corsKeys = ["allow_origin", "paths"]

    static func parse(headers: ConfigNode?, cors: ConfigNode?) throws(ConfigError) -> HeaderPolicy {
        var rules: [HeaderRule] = []
        for ruleNode in try headers?.sequence() ?? [] {
            rules.append(try parseRule(ruleNode))
        }
        let corsPolicy = try cors.map(parseCORS) ?? .default
        return HeaderPolicy(rules: rules, cors: corsPolicy)
    }

    private static func parseRule(_ node: ConfigNode) throws(ConfigError) -> HeaderRule {
        let entry = try node.mapping(allowed: ruleKeys)
        let pattern = try parsePattern(try entry.required("source"))
        let fieldsNode = try entry.required("headers")
        var fields: [HeaderField] = []
        for (name, keyNode, valueNode) in try fieldsNode.namedEntries() {
            if let earlier = fields.first(where: { $0.name.lowercased() == name.lowercased() }) {
                throw keyNode.error("the header \(name) is set twice in this rule (also as \(earlier.name)); header names are case-insensitive")
            }
            let value = try valueNode.string()
            do throws(HeaderFieldError) {
                fields.append(try HeaderField(validatingName: name, value: value))
            } catch {
                // A bad value is reported at the value, a bad or reserved name at the name.
                if case .invalidValue = error { throw valueNode.error(error.description) }
                throw keyNode.error(error.description)
            }
        }
        if fields.isEmpty {
            throw fieldsNode.error("\(fieldsNode.path) must set at least one header, for example Cache-Control: \"public, max-age=300\"")
        }
        return HeaderRule(pattern: pattern, fields: fields)
    }

    private static func parseCORS(_ node: ConfigNode) throws(ConfigError) -> CORSPolicy? {
        if node.isPlainScalar(tagged: .bool) {
            guard try node.bool() == false else {
                throw node.error("cors: true is the default; write a mapping (allow_origin, paths) to change it, or false to turn CORS off")
            }
            return nil
        }
        let entry = try node.mapping(allowed: corsKeys)
        var paths = CORSPolicy.default.paths
        if let pathsNode = entry["paths"] {
            paths = []
            for patternNode in pathsNode.sequenceOrSingle() {
                paths.append(try parsePattern(patternNode))
            }
            if paths.isEmpty { throw pathsNode.error("cors.paths must list at least one pattern; use cors: false to turn CORS off") }
        }
        let origin = try entry["allow_origin"]?.string() ?? CORSPolicy.default.allowOrigin
        do throws(CORSPolicyError) {
            return try CORSPolicy(allowOrigin: origin, paths: paths)
        } catch {
            throw (entry["allow_origin"] ?? node).error(error.description)
        }
    }

    private static func parsePattern(_ node: ConfigNode) throws(ConfigError) -> PathPattern {
        let text = try node.string()
        do throws(PathPatternError) {
            return try PathPattern(text)
        } catch {
            throw node.error(error.description)
        }
    }
}
