import HTTPTypes

/// The precondition fields of a request (RFC 9110 §13.1), parsed once and evaluated against the
/// validators of the selected representation in the order of RFC 9110 §13.2.2.
struct Preconditions {
    /// What the preconditions ask the server to do.
    enum Outcome: Equatable {
        /// Send the response as is (maybe as a range).
        case proceed
        /// Send 304 Not Modified.
        case notModified
        /// Send 412 Precondition Failed, naming the field that failed.
        case failed(HTTPField.Name)
    }

    var ifMatch: EntityTagCondition?
    var ifUnmodifiedSince: HTTPDate?
    var ifNoneMatch: EntityTagCondition?
    var ifModifiedSince: HTTPDate?

    /// Reads the four fields from a GET or HEAD request. Dates that are not valid HTTP-dates
    /// (including lists of dates) are ignored, as RFC 9110 §13.1.3 and §13.1.4 require.
    init(_ fields: HTTPFields) {
        ifMatch = fields[.ifMatch].map(EntityTagCondition.init)
        ifUnmodifiedSince = fields[.ifUnmodifiedSince].flatMap(HTTPDate.init)
        ifNoneMatch = fields[.ifNoneMatch].map(EntityTagCondition.init)
        ifModifiedSince = fields[.ifModifiedSince].flatMap(HTTPDate.init)
    }

    /// Evaluates the preconditions for a representation with the given validators.
    ///
    /// `If-Unmodified-Since` counts only without `If-Match`, `If-Modified-Since` only without
    /// `If-None-Match`. `If-Modified-Since` uses "earlier or equal" semantics: the representation
    /// is unmodified when `Last-Modified` ≤ the date sent (RFC 9110 §13.1.3). nginx's default
    /// (`if_modified_since exact`) differs: it answers 304 only for the exact date.
    func evaluate(entityTag: EntityTag?, lastModified: HTTPDate?) -> Outcome {
        if let ifMatch {
            guard ifMatch.matches(entityTag, strong: true) else { return .failed(.ifMatch) }
        } else if let ifUnmodifiedSince, let lastModified, lastModified > ifUnmodifiedSince {
            return .failed(.ifUnmodifiedSince)
        }
        if let ifNoneMatch {
            return ifNoneMatch.matches(entityTag, strong: false) ? .notModified : .proceed
        }
        if let ifModifiedSince, let lastModified, lastModified <= ifModifiedSince {
            return .notModified
        }
        return .proceed
    }
}
