/// One entry of the header policy: the paths it applies to and the header fields they get.
public struct HeaderRule: Sendable, Hashable {
    /// The paths this rule applies to.
    public var pattern: PathPattern
    /// The fields sent with every response for a matching path, in order.
    public var fields: [HeaderField]

    /// Creates a rule.
    public init(pattern: PathPattern, fields: [HeaderField]) {
        self.pattern = pattern
        self.fields = fields
    }
}
