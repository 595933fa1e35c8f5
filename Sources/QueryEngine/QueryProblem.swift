/// One reason a query cannot be published as a named query: the rule it breaks, a sentence a
/// user can act on, and — for client limitations — which clients fail.
public struct QueryProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var rule: QueryRule
    public var message: String
    /// The target clients that cannot use the query; empty for rules of the Firestore backend
    /// (which every client would hit once online) and for rules of the product.
    public var clients: ClientPlatform

    public init(rule: QueryRule, message: String, clients: ClientPlatform = []) {
        self.rule = rule
        self.message = message
        self.clients = clients
    }

    public var description: String { "\(rule.rawValue): \(message)" }
}

/// Every problem ``QueryValidator`` found in a query.
public struct QueryValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [QueryProblem]

    public init(problems: [QueryProblem]) {
        self.problems = problems
    }

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

/// The rules ``QueryValidator`` checks; raw values name them in messages.
public enum QueryRule: String, Sendable, Equatable, CaseIterable {
    /// The query needs a collection ID without '/', and a parent that is the root or a document.
    case scope = "query-scope"
    /// `in`/`array-contains-any`: a non-empty array of at most 30 values; `not-in`: at most 10.
    case listOperand = "list-operand"
    /// At most 30 disjunctions in disjunctive normal form.
    case disjunctionCount = "disjunction-count"
    /// `not-in` excludes every other `not-in`, `in`, `array-contains-any`, `!=` and OR.
    case notInConflict = "not-in-conflict"
    /// At most one `!=` (including `IS_NOT_NULL`, `IS_NOT_NAN`).
    case multipleNotEqual = "multiple-not-equal"
    /// At most one `array-contains`/`array-contains-any` per disjunction.
    case arrayContainsPerDisjunction = "array-contains-per-disjunction"
    /// Only `==` and `!=` may compare with null or NaN.
    case nullOrNaNComparison = "null-or-nan-comparison"
    /// `__name__` filters and cursor components need reference values of the query's database;
    /// `array-contains*` and unary filters on `__name__` are meaningless.
    case documentKey = "document-key"
    /// A composite filter needs at least one filter.
    case emptyComposite = "empty-composite"
    /// Cursors need 1…(number of normalized orderBys) values.
    case cursor = "cursor"
    /// A limit must be positive.
    case limit = "limit"
    /// `limitToLast` needs an explicit orderBy.
    case limitToLastWithoutOrderBy = "limit-to-last-without-order-by"
    /// `limitToLast` needs a limit.
    case limitToLastWithoutLimit = "limit-to-last-without-limit"
    /// `offset` and `select` are ignored or refused by every client in a bundle.
    case offsetOrSelect = "offset-or-select"
    /// Android and iOS cannot load OR filters from a bundle.
    case orFilter = "or-filter"
    /// iOS cannot load a composite filter nested in an AND from a bundle.
    case nestedCompositeFilter = "nested-composite-filter"
    /// iOS cannot load reference values of another project or database.
    case foreignReference = "foreign-reference"
}
