/// A failure while writing the site. The previously published manifest is untouched whenever
/// this is thrown.
public struct PublishError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
