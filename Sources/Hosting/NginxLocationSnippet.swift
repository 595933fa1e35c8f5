import Foundation
import SitePolicy

/// An nginx include for the `server { }` that serves the site: precompressed `.gz` sidecars,
/// the content types of `bundlepress serve`, and one regex `location` per header rule.
///
/// Regex locations are tried in file order and the first that matches is used, which is the
/// policy's own rule, so the rules keep their order. CORS and the common fields apply by their
/// own patterns: a rule whose paths one of them covers in part gets a location limited by a
/// lookahead to those paths before its own (two in part: four locations). A location that sets
/// `add_header` inherits none, so each repeats the CORS and common fields. The rule's own fields go without `always`: nginx then sends them with 200,
/// 206 and 304 but not with a 404, which must not be cached for a year.
struct NginxLocationSnippet {
    /// Where the build writes it, in the output directory; the snippet itself hides dot files.
    static let path = ".bundlepress-hosting/nginx.conf"

    let text: String
    let warnings: [HostingWarning]

    init(plan: HeaderPlan) {
        var warnings: [HostingWarning] = []
        let groups = [
            FieldGroup(
                name: "cors:", patterns: plan.corsPatterns,
                regexes: plan.corsPatterns.map { PathRegex($0.pattern, label: $0.label, file: Self.path, host: .nginx, warnings: &warnings) },
                lines: Self.addHeaders(plan.corsFields, always: true, label: "cors", warnings: &warnings)),
            FieldGroup(
                name: plan.commonFields.map(\.name).joined(separator: ", "), patterns: plan.commonPatterns,
                regexes: plan.commonPatterns.map { PathRegex($0.pattern) },
                lines: Self.addHeaders(plan.commonFields, always: true, label: "every response", warnings: &warnings)),
        ]

        var locations: [String] = []
        for rule in plan.rules {
            let regex = PathRegex(rule.pattern, label: rule.label, file: Self.path, host: .nginx, warnings: &warnings)
            let own = Self.addHeaders(rule.fields, always: false, label: rule.label, warnings: &warnings)
            let coverage = groups.map { plan.coverage(of: rule, by: $0.patterns) }
            let partial = groups.indices.filter { coverage[$0] == .some }
            // One location per set of the groups covering in part, a set before its subsets:
            // the first that matches decides.
            for subset in (0..<(1 << partial.count)).reversed() {
                let limited = partial.indices.filter { subset & (1 << $0) != 0 }.map { partial[$0] }
                let lines = groups.indices.filter { coverage[$0] == .all || limited.contains($0) }.flatMap { groups[$0].lines }
                let lookaheads = limited.map { "(?=\(PathRegex.alternation(groups[$0].regexes))$)" }.joined()
                let comment = limited.isEmpty ? rule.label : "\(rule.label), where \(limited.map { groups[$0].name }.joined(separator: " and ")) appl\(limited.count == 1 ? "ies" : "y")"
                locations.append(Self.location(comment, regex: "^\(lookaheads)\(regex.body)$", lines: own + lines))
            }
        }
        // CORS paths that no rule takes whole (a policy for production hosts has no catch-all):
        // tried last, so this location gets only the paths no rule takes.
        let untaken = plan.corsPatterns.indices.filter { index in !plan.rules.contains { plan.corsPatterns[index].pattern.isCovered(by: $0.pattern) } }
        if !untaken.isEmpty {
            let regex = "^\(PathRegex.alternation(untaken.map { groups[0].regexes[$0] }))$"
            locations.append(Self.location("cors: where no rule applies", regex: regex, lines: groups[0].lines))
        }
        self.text = Self.render(locations: locations)
        self.warnings = warnings
    }

    /// Fields sent on the paths of their own patterns, whatever rule decides: CORS, the common fields.
    private struct FieldGroup {
        /// For the comment of a location the group's patterns limit.
        let name: String
        let patterns: [HeaderPlan.LabelledPattern]
        let regexes: [PathRegex]
        let lines: [String]
    }

    /// `add_header` lines, leaving out (with a warning) values nginx cannot send as they are.
    private static func addHeaders(_ fields: [HeaderField], always: Bool, label: String, warnings: inout [HostingWarning]) -> [String] {
        var lines: [String] = []
        for field in fields {
            if field.value.isEmpty || field.value.contains("$") {
                warnings.append(.fieldLeftOut(
                    file: path, hosts: [.nginx], label: label, fieldName: field.name,
                    because: field.value.isEmpty
                        ? "nginx does not send a field with an empty value" : "nginx reads $ in add_header as a variable and has no escape for it"))
                continue
            }
            let value = field.value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            lines.append("add_header \(field.name) \"\(value)\"\(always ? " always" : "");")
        }
        return lines
    }

    private static func location(_ comment: String, regex: String, lines: [String]) -> String {
        "    # \(comment)\n    location ~ \"\(regex)\" {\n" + lines.map { "        \($0)\n" }.joined() + "    }\n"
    }

    /// `types { }` from ``SitePolicy/ContentTypes``: it replaces the inherited map, so files get
    /// the types `bundlepress serve` sends, and `default_type` covers the rest.
    private static var typesBlock: String {
        let byType = Dictionary(grouping: ContentTypes.byExtension, by: \.value).mapValues { $0.map(\.key).sorted() }
        let lines = byType.sorted { $0.key < $1.key }.map { type, extensions in
            let name = type.contains(" ") || type.contains(";") ? "\"\(type)\"" : type
            return "    \(name) \(extensions.joined(separator: " "));\n"
        }
        return "default_type \(ContentTypes.fallback);\ntypes {\n" + lines.joined() + "}\n"
    }

    private static func render(locations: [String]) -> String {
        """
        # Generated by `bundlepress build` from the headers: and cors: settings in pipeline.yml;
        # edit those and build again rather than this file.
        # Include it in the server { } block whose root is the site directory:
        #     root /srv/www/site;
        #     include /srv/www/site/\(path);
        # It defines location / (remove yours) with one regex location per header rule inside, in the
        # order bundlepress serve tries them: the first that matches decides, as there. Regex locations
        # win over prefix ones, so write other locations as "location ^~ /prefix/ { ... }".
        # A location with add_header inherits none: fields the server block adds are not sent there,
        # but they are on the paths no rule here takes (the site's own files beside bundles/).
        # Rule fields go with 200, 206 and 304 responses (never with a 404); CORS and nosniff with all.

        gzip_static on;            # x.bundle.gz is sent for x.bundle to clients that accept gzip
        gzip_vary on;              # Vary: Accept-Encoding on both representations
        etag on;
        if_modified_since before;  # 304 when the file is not newer than If-Modified-Since, as bundlepress serve
        \(typesBlock)
        location / {
            # Not resources: the .gz sidecars (gzip_static still reads them), dot files, _headers.
            location ~ "\\.gz$|/\\.|^/_headers$" {
                return 404;
            }

        \(locations.joined(separator: "\n"))}

        """
    }
}
