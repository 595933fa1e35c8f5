/// The response header policy of a site: path rules (first match wins) over built-in defaults,
/// plus CORS.
///
/// A plain value: the server resolves it per path, and the publishing step can render the same
/// rules into a CDN's header file (narrowed to the files a build writes:
/// ``forProductionHosts(explorer:)``). ``allRules`` lists what applies in order.
public struct HeaderPolicy: Sendable, Hashable {
    /// The site's own rules (pipeline.yml `headers:`), tried in order before ``defaultRules``.
    public var rules: [HeaderRule]
    /// Cross-origin access, or nil to send no CORS fields at all.
    public var cors: CORSPolicy?
    /// The rules tried after ``rules``: ``defaultRules``, or fewer in a policy for production
    /// hosts (``forProductionHosts(explorer:)``).
    public internal(set) var builtInRules = Self.defaultRules
    /// The paths that get ``commonFields``: every path, or in a policy for production hosts the
    /// folders the build writes.
    public internal(set) var commonFieldPatterns = [Self.everyPathPattern]

    /// Fields sent with every response in ``commonFieldPatterns``, whatever the rules say.
    public static let commonFields = [HeaderField(name: "X-Content-Type-Options", value: "nosniff")]

    /// The built-in policy: only ``defaultRules`` and ``CORSPolicy/default``.
    public static let `default` = HeaderPolicy(rules: [], cors: .default)

    /// Creates a policy.
    public init(rules: [HeaderRule], cors: CORSPolicy?) {
        self.rules = rules
        self.cors = cors
    }

    /// The site's rules followed by the built-in ones: the order in which they are tried.
    public var allRules: [HeaderRule] { rules + builtInRules }

    /// The rule that decides the fields of `path` (a site path such as `/bundles/manifest.json`):
    /// the first of ``allRules`` whose pattern matches.
    public func rule(forPath path: String) -> HeaderRule? {
        rules.first { $0.pattern.matches(path) } ?? builtInRules.first { $0.pattern.matches(path) }
    }

    /// Every policy field for `path`, in order: the deciding rule's fields, then the CORS fields
    /// when CORS applies to the path, then ``commonFields`` when ``commonFieldPatterns`` take it.
    public func headers(forPath path: String) -> [HeaderField] {
        var fields = rule(forPath: path)?.fields ?? []
        if let cors, cors.applies(toPath: path) {
            fields += cors.responseFields
        }
        if commonFieldPatterns.contains(where: { $0.matches(path) }) {
            fields += Self.commonFields
        }
        return fields
    }
}
