/// What a build does when a published field looks like personal data or a secret
/// (`exposure: {mode: warn | fail}`).
public struct ExposurePolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Publish, and warn per bundle, collection and field (the default).
        case warn
        /// Publish nothing, and say why.
        case fail
    }

    public var mode: Mode

    public init(mode: Mode) {
        self.mode = mode
    }

    /// Warn: a site's first build should show what it would publish, not stop on it.
    public static let `default` = ExposurePolicy(mode: .warn)

    /// The keys of `exposure:`.
    static let keys = ["mode"]

    static func parse(_ node: ConfigNode) throws(ConfigError) -> ExposurePolicy {
        let entry = try node.mapping(allowed: keys)
        guard let modeNode = entry["mode"] else { return .default }
        let text = try modeNode.string()
        guard let mode = Mode(rawValue: text) else {
            throw modeNode.error("exposure.mode must be one of \(Mode.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(text)\"")
        }
        return ExposurePolicy(mode: mode)
    }
}
