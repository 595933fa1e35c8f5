import JSONCore

/// A problem in `pipeline.yml`: where it is (file, line, column) and a sentence that says what
/// was found and what was expected.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation?
    public var message: String

    public init(_ message: String, at location: SourceLocation?) {
        self.location = location
        self.message = message
    }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }
}
