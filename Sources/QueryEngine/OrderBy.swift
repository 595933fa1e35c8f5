import FirestoreModel

/// One ordering of a query: a field and a direction.
public struct OrderBy: Sendable, Equatable {
    public var field: FieldPath
    public var direction: Direction

    public init(_ field: FieldPath, _ direction: Direction = .ascending) {
        self.field = field
        self.direction = direction
    }

    /// The direction of an ordering; raw values are the proto names.
    public enum Direction: String, Sendable, Equatable {
        case ascending = "ASCENDING"
        case descending = "DESCENDING"
    }
}
