import FirestoreModel

extension ConfigNode {
    /// A collection or document path below the database root (`stories`, `stories/s1/comments`).
    func resourcePath() throws(ConfigError) -> ResourcePath {
        try parsedString { text throws(PathError) in try ResourcePath(parsing: text) }
    }

    /// A field path: dotted segments, a segment with other characters in backticks.
    func fieldPath() throws(ConfigError) -> FieldPath {
        try parsedString { text throws(PathError) in try FieldPath(serverFormat: text) }
    }

    /// The string, parsed; a ``PathError`` becomes a ConfigError at this node.
    private func parsedString<T>(_ parse: (String) throws(PathError) -> T) throws(ConfigError) -> T {
        let text = try string()
        do throws(PathError) {
            return try parse(text)
        } catch {
            throw self.error(error.message)
        }
    }
}
