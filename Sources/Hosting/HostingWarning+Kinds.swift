extension HostingWarning {
    /// For a `_headers` path that matches more paths than its pattern, nil for an exact one.
    static func widened(_ path: SplatPath, label: String) -> HostingWarning? {
        path.isExact ? nil : widened(
            file: NetlifyHeadersFile.path, hosts: NetlifyHeadersFile.hosts, label: label, writtenAs: path.text,
            because: "a _headers path has no ? or […] and its * also matches /")
    }

    /// For a regex that matches more paths than its pattern, nil for an exact one.
    static func widened(_ regex: PathRegex, file: String, host: HostingProvider, label: String) -> HostingWarning? {
        regex.isExact ? nil : widened(
            file: file, hosts: [host], label: label, writtenAs: regex.anchored,
            because: "a segment with [:class:], an unterminated [ or a reversed range matches any name")
    }

    private static func widened(file: String, hosts: [HostingProvider], label: String, writtenAs: String, because reason: String) -> HostingWarning {
        HostingWarning(
            file: file, hosts: hosts, rule: label,
            message: "written as \(writtenAs), which also matches paths the pattern does not (\(reason)); those paths get these fields too")
    }

    /// A field that a later rule adds to paths `leak.rule` decides, on hosts that apply every
    /// matching rule and cannot remove a field.
    static func leak(_ leak: HeaderPlan.Leak, file: String, hosts: [HostingProvider]) -> HostingWarning {
        let sources = leak.sources.map { source in "\(source.label)" + (source.value(of: leak.fieldName).map { " (\($0))" } ?? "") }
        return HostingWarning(
            file: file, hosts: hosts, rule: leak.rule.label,
            message: "these hosts apply every matching rule and cannot remove a field, so paths this rule decides also get "
                + "\(leak.fieldName) from \(sources.joined(separator: ", ")); set \(leak.fieldName) in this rule to replace it")
    }

    /// A field the file leaves out because the host cannot send its value.
    static func fieldLeftOut(file: String, hosts: [HostingProvider], label: String, fieldName: String, because reason: String) -> HostingWarning {
        HostingWarning(file: file, hosts: hosts, rule: label, message: "\(fieldName) is left out: \(reason)")
    }
}
