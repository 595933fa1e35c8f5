import FirestoreModel

extension ConfigNode {
    /// A collection or document path below the database root (`stories`, `stories/s1/comments`).
    func resourcePath() throws(ConfigError) -> ResourcePath {
        let text = try string()
        do throws(PathError) {
            return try ResourcePath(parsing: text)
        } catch {
            throw self.error(error.message)
        }
    }

    /// A field path: dotted segments, a segment with other characters in backticks.
    func fieldPath() throws(ConfigError) -> FieldPath {
        let text = try string()
        do throws(PathError) {
            return try FieldPath(serverFormat: text)
        } catch {
            throw self.error(error.message)
        }
    }
}
