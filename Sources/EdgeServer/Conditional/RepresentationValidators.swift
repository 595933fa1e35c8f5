import HTTPTypes

/// The validators a response carries for its representation, `ETag` and `Last-Modified`, parsed
/// only when a request field is compared with them: most requests carry no such field, and then
/// neither is parsed.
struct RepresentationValidators {
    /// The response's header fields.
    let fields: HTTPFields

    /// The `ETag` field value as sent, nil when there is none.
    var entityTagValue: String? { fields.value(of: .eTag) }

    /// The representation's entity tag, nil when it has none or it is malformed.
    var entityTag: EntityTag? { entityTagValue.flatMap(EntityTag.init) }

    /// The representation's modification date, nil when it has none or it is malformed.
    var lastModified: HTTPDate? { fields.value(of: .lastModified).flatMap(HTTPDate.init) }
}
