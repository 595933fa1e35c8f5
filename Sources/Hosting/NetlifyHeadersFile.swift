import SitePolicy

/// `_headers` at the site root: the header rules of Netlify and Cloudflare Pages.
///
/// Both hosts apply every block whose path matches, top to bottom; for a field set by several,
/// Cloudflare Pages joins the values with commas and Netlify keeps the last (what
/// `netlify dev` does; production behaviour is not documented). The policy is first match wins,
/// so the rules are written in reverse: the catch-all first, the site's first rule last. Before
/// setting its fields a block clears, with `! Name`, those and every field an earlier block set
/// (Cloudflare Pages; Netlify skips lines without a colon), so on Cloudflare Pages each path
/// ends up with exactly the fields of the rule that decides it, whatever the site's own rules
/// above the block set.
struct NetlifyHeadersFile {
    /// Where the hosts look for it.
    static let path = "_headers"
    /// Who reads it.
    static let hosts: [HostingProvider] = [.netlify, .cloudflarePages]
    /// Cloudflare Pages ignores rules past this many…
    static let maximumRules = 100
    /// …and lines longer than this.
    static let maximumLineLength = 2000

    /// One path and the lines under it.
    private struct Block {
        /// What the block comes from, for the comment above it.
        var labels: [String]
        var path: String
        var lines: [String]
        /// The policy rule of this block, to compare with a rule that replaces it.
        var rule: HeaderPlan.Rule?
        /// Said when the block stays: its path matches more than the rule's pattern.
        var widening: HostingWarning? = nil
    }

    let text: String
    let warnings: [HostingWarning]

    init(plan: HeaderPlan) {
        var blocks: [Block] = []
        var warnings: [HostingWarning] = []
        var namesSetAbove: [String] = []
        for rule in plan.rules.reversed() {
            let detach = Self.detachLines(namesSetAbove + rule.fields.map(\.name))
            let lines = Self.fieldLines(rule.fields, label: rule.label, warnings: &warnings)
            // The rule's paths, then the directory URLs hosts serve its index pages at.
            let directories = DirectoryIndex.splatPaths(of: rule.pattern)
            for path in [SplatPath(rule.pattern)] + directories {
                if let index = blocks.firstIndex(where: { $0.path == path.text }) {
                    // A path may appear once (Cloudflare Pages keeps the first block's position
                    // with the last one's fields); this rule is tried first, so it replaces that one.
                    let replaced = blocks.remove(at: index)
                    if let shadowed = replaced.rule, shadowed.fields != rule.fields {
                        warnings.append(HostingWarning(
                            file: Self.path, hosts: Self.hosts, rule: shadowed.label,
                            message: "written as \(path.text), the same path as \(rule.label), which comes first; "
                                + "its paths get the fields of that rule instead"))
                    }
                }
                let label = path.text == SplatPath(rule.pattern).text ? rule.label : "\(rule.label), at its directory URLs"
                blocks.append(Block(labels: [label], path: path.text, lines: detach + lines, rule: rule, widening: .widened(path, label: rule.label)))
            }
            for field in rule.fields where !namesSetAbove.contains(where: { $0.lowercased() == field.name.lowercased() }) {
                namesSetAbove.append(field.name)
            }
        }
        warnings += blocks.compactMap(\.widening) + plan.leaks.map { .leak($0, file: Self.path, hosts: [.netlify]) }

        for common in plan.commonPatterns.reversed() {
            let lines = Self.detachLines(plan.commonFields.map(\.name)) + Self.fieldLines(plan.commonFields, label: common.label, warnings: &warnings)
            Self.merge(Block(labels: [common.label], path: SplatPath(common.pattern).text, lines: lines), into: &blocks, atStart: true)
        }

        var corsPaths: Set<String> = []
        for cors in plan.corsPatterns {
            let path = SplatPath(cors.pattern)
            if let warning = HostingWarning.widened(path, label: cors.label) { warnings.append(warning) }
            guard corsPaths.insert(path.text).inserted else { continue }
            // Where two CORS paths overlap, the later block replaces the earlier one's fields.
            let detach = Self.detachLines(plan.corsFields.map(\.name))
            let lines = Self.fieldLines(plan.corsFields, label: cors.label, warnings: &warnings)
            Self.merge(Block(labels: [cors.label], path: path.text, lines: detach + lines), into: &blocks, atStart: false)
        }

        if blocks.count > Self.maximumRules {
            warnings.append(HostingWarning(
                file: Self.path, hosts: [.cloudflarePages], rule: nil,
                message: "\(blocks.count) rules; Cloudflare Pages reads the first \(Self.maximumRules) only, so merge header rules in pipeline.yml"))
        }
        self.text = Self.render(blocks)
        self.warnings = warnings
    }

    /// Adds `block`'s lines to the block with the same path, or adds the block (first or last).
    /// Used for fields no policy rule sets, so where their lines stand does not matter.
    private static func merge(_ block: Block, into blocks: inout [Block], atStart: Bool) {
        if let index = blocks.firstIndex(where: { $0.path == block.path }) {
            blocks[index].labels += block.labels
            blocks[index].lines = atStart ? block.lines + blocks[index].lines : blocks[index].lines + block.lines
        } else {
            blocks.insert(block, at: atStart ? 0 : blocks.endIndex)
        }
    }

    /// `! Name` lines clearing `names`, each name once (any case).
    private static func detachLines(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0.lowercased()).inserted }.map { "! \($0)" }
    }

    /// `Name: value` lines, adding to `warnings` for fields a host cannot send.
    private static func fieldLines(_ fields: [HeaderField], label: String, warnings: inout [HostingWarning]) -> [String] {
        var lines: [String] = []
        for field in fields {
            let line = "\(field.name): \(field.value)"
            if field.value.isEmpty {
                warnings.append(.fieldLeftOut(
                    file: path, hosts: hosts, label: label, fieldName: field.name,
                    because: "both hosts reject a _headers line with an empty value"))
            } else {
                if line.utf8.count + 2 > maximumLineLength {
                    warnings.append(HostingWarning(
                        file: path, hosts: [.cloudflarePages], rule: label,
                        message: "Cloudflare Pages ignores _headers lines longer than \(maximumLineLength) characters, "
                            + "so it does not send \(field.name)"))
                }
                lines.append(line)
            }
        }
        return lines
    }

    private static func render(_ blocks: [Block]) -> String {
        var text = """
            # Generated by `bundlepress build` from the headers: and cors: settings in pipeline.yml;
            # edit those and build again rather than this file. Besides your headers: rules, it
            # covers only what bundlepress writes (bundles/, and the folder of explorer:).
            # Netlify and Cloudflare Pages apply every block whose path matches, top to bottom, so
            # the catch-all comes first and the rule bundlepress tries first comes last. A "! Name"
            # line clears what the blocks above set, yours included (Cloudflare Pages; Netlify
            # ignores the line and keeps the last value). Deploy the site without its .gz files:
            # both hosts compress.

            """
        for block in blocks {
            text += "\n# \(block.labels.joined(separator: "; "))\n\(block.path)\n"
            text += block.lines.map { "  \($0)\n" }.joined()
        }
        return text
    }
}
