/// A place where a host will not send what `bundlepress serve` sends, because its header file
/// cannot say it: the build reports it instead of letting the two differ silently.
public struct HostingWarning: Sendable, Hashable, CustomStringConvertible {
    /// The generated file, relative to the output directory (`_headers`).
    public var file: String
    /// The hosts that read that file and are affected.
    public var hosts: [HostingProvider]
    /// The rule or pattern concerned, as pipeline.yml names it (`headers[0] "/assets/**"`,
    /// `built-in "*.html"`, `cors.paths[0] "/bundles/**"`), or nil for the file as a whole.
    public var rule: String?
    /// What differs and what to do about it.
    public var message: String

    /// Creates a warning.
    public init(file: String, hosts: [HostingProvider], rule: String?, message: String) {
        self.file = file
        self.hosts = hosts
        self.rule = rule
        self.message = message
    }

    public var description: String {
        let hostNames = hosts.map(\.displayName).joined(separator: ", ")
        return "\(file) (\(hostNames)): " + (rule.map { "\($0): " } ?? "") + message
    }
}
