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
    /// `If-None-Match` as sent, parsed only when it is not simply the representation's tag.
    var ifNoneMatch: String?
    var ifModifiedSince: HTTPDate?

    /// Reads the four fields from a GET or HEAD request, in one pass over its fields (several
    /// lines of one field are joined with commas). Dates that are not valid HTTP-dates (including
    /// lists of dates) are ignored, as RFC 9110 §13.1.3 and §13.1.4 require.
    init(_ fields: HTTPFields) {
        var ifMatch: String?
        var ifUnmodifiedSince: String?
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        for field in fields {
            switch field.name {
            case .ifMatch: ifMatch = Self.joined(ifMatch, field.value)
            case .ifUnmodifiedSince: ifUnmodifiedSince = Self.joined(ifUnmodifiedSince, field.value)
            case .ifNoneMatch: ifNoneMatch = Self.joined(ifNoneMatch, field.value)
            case .ifModifiedSince: ifModifiedSince = Self.joined(ifModifiedSince, field.value)
            default: continue
            }
        }
        self.ifMatch = ifMatch.map(EntityTagCondition.init)
        self.ifUnmodifiedSince = ifUnmodifiedSince.flatMap(HTTPDate.init)
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince.flatMap(HTTPDate.init)
    }

    private static func joined(_ earlier: String?, _ line: String) -> String {
        earlier.map { $0 + ", " + line } ?? line
    }

    /// Evaluates the preconditions for a representation with the given validators, parsing them
    /// only when a field needs them.
    ///
    /// `If-Unmodified-Since` counts only without `If-Match`, `If-Modified-Since` only without
    /// `If-None-Match`. `If-Modified-Since` uses "earlier or equal" semantics: the representation
    /// is unmodified when `Last-Modified` ≤ the date sent (RFC 9110 §13.1.3). nginx's default
    /// (`if_modified_since exact`) differs: it answers 304 only for the exact date.
    func evaluate(_ validators: RepresentationValidators) -> Outcome {
        if let ifMatch {
            guard ifMatch.matches(validators.entityTag, strong: true) else { return .failed(.ifMatch) }
        } else if let ifUnmodifiedSince, let lastModified = validators.lastModified, lastModified > ifUnmodifiedSince {
            return .failed(.ifUnmodifiedSince)
        }
        if let ifNoneMatch {
            // A revalidation echoes the tag it was given: the same bytes as a well-formed `ETag`
            // match without parsing either.
            if let entityTag = validators.entityTagValue, ifNoneMatch == entityTag, EntityTag.isExactlyOneTag(entityTag) {
                return .notModified
            }
            return EntityTagCondition(ifNoneMatch).matches(validators.entityTag, strong: false) ? .notModified : .proceed
        }
        if let ifModifiedSince, let lastModified = validators.lastModified, lastModified <= ifModifiedSince {
            return .notModified
        }
        return .proceed
    }
}
