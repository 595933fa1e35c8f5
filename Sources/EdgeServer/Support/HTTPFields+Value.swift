import HTTPTypes

extension HTTPFields {
    /// The value of the field `name` as the subscript gives it (several lines joined with
    /// commas), except that a single line's value is returned as it is stored: the subscript
    /// always builds a new string, an allocation for any value longer than 15 bytes (an `ETag`).
    func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
