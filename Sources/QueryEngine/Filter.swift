import FirestoreModel

/// A query filter; composites nest freely.
public indirect enum Filter: Sendable, Equatable {
    /// `field op value`.
    case field(FieldPath, Operator, Value)
    /// `IS_NULL`, `IS_NAN`, `IS_NOT_NULL`, `IS_NOT_NAN` (the SDKs' wire form of `== null`,
    /// `== NaN`, `!= null`, `!= NaN`, with exactly the same meaning).
    case unary(FieldPath, UnaryOperator)
    /// An AND or OR of filters.
    case composite(CompositeOperator, [Filter])

    /// A field filter operator; raw values are the proto names.
    public enum Operator: String, Sendable, Equatable, CaseIterable {
        case lessThan = "LESS_THAN"
        case lessThanOrEqual = "LESS_THAN_OR_EQUAL"
        case equal = "EQUAL"
        case notEqual = "NOT_EQUAL"
        case greaterThan = "GREATER_THAN"
        case greaterThanOrEqual = "GREATER_THAN_OR_EQUAL"
        case arrayContains = "ARRAY_CONTAINS"
        case arrayContainsAny = "ARRAY_CONTAINS_ANY"
        case `in` = "IN"
        case notIn = "NOT_IN"

        /// The operator as the SDKs spell it in `where()` (`<`, `array-contains`, `not-in`).
        public var symbol: String {
            switch self {
            case .lessThan: return "<"
            case .lessThanOrEqual: return "<="
            case .equal: return "=="
            case .notEqual: return "!="
            case .greaterThan: return ">"
            case .greaterThanOrEqual: return ">="
            case .arrayContains: return "array-contains"
            case .arrayContainsAny: return "array-contains-any"
            case .in: return "in"
            case .notIn: return "not-in"
            }
        }

        /// Operators that make a field an inequality field (implicitly ordered).
        public var isInequality: Bool {
            switch self {
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn: return true
            case .equal, .arrayContains, .arrayContainsAny, .in: return false
            }
        }

        /// Operators whose value is a list (an array value).
        public var takesList: Bool {
            self == .in || self == .notIn || self == .arrayContainsAny
        }
    }

    /// A unary filter operator; raw values are the proto names.
    public enum UnaryOperator: String, Sendable, Equatable, CaseIterable {
        case isNull = "IS_NULL"
        case isNaN = "IS_NAN"
        case isNotNull = "IS_NOT_NULL"
        case isNotNaN = "IS_NOT_NAN"

        /// The equivalent field filter operator and value (`IS_NULL` ≡ `== null`), as the
        /// clients rebuild it (`fromUnaryFilter`).
        public var fieldFilterEquivalent: (Operator, Value) {
            switch self {
            case .isNull: return (.equal, .null)
            case .isNaN: return (.equal, .double(.nan))
            case .isNotNull: return (.notEqual, .null)
            case .isNotNaN: return (.notEqual, .double(.nan))
            }
        }
    }

    /// A composite filter operator; raw values are the proto names.
    public enum CompositeOperator: String, Sendable, Equatable, CaseIterable {
        case and = "AND"
        case or = "OR"
    }
}
