import HTTPTypes

extension ConditionalResponder {
    /// Applies `Range` and `If-Range` to a full `200 OK` response to GET (RFC 9110 §14.2, §13.1.5).
    ///
    /// - No `Range`, a `Range` that is not valid `bytes=` syntax, a failed `If-Range`, or an empty
    ///   representation: the full 200.
    /// - One range: 206 with `Content-Range`, or 416 with `Content-Range: bytes */<length>` when it
    ///   starts past the end. The range counts bytes of the selected representation, so with gzip
    ///   negotiated it selects gzip bytes (the ETag then is the gzip one).
    /// - Several ranges: the full 200. Firestore SDKs and `fetch` never ask for several ranges;
    ///   answering them with `multipart/byteranges` would add a body format no client of a bundle
    ///   site reads, and overlapping or many small ranges are a known amplification vector. RFC 9110
    ///   §14.2 lets a server ignore `Range`; serving only the first range would be wrong.
    func selectRange(_ response: ServerResponse, for fields: HTTPFields, validators: RepresentationValidators) -> ServerResponse {
        guard let range = fields.value(of: .range).flatMap(RangeRequest.init), range.ranges.count == 1,
            response.body.readableBytes > 0,
            fields.value(of: .ifRange).map({ Self.ifRangeHolds($0, validators) }) ?? true
        else { return response }
        let length = response.body.readableBytes
        guard let selected = range.ranges[0].resolved(forLength: length) else {
            return response.rangeNotSatisfiable(length: length)
        }
        return response.partialContent(selected)
    }

    /// `If-Range` holds when it carries an entity tag that strongly matches the current one, or
    /// an HTTP-date exactly equal to `Last-Modified`. A weak tag or anything else fails.
    static func ifRangeHolds(_ value: String, _ validators: RepresentationValidators) -> Bool {
        if let tag = EntityTag(value) {
            return validators.entityTag.map(tag.matchesStrongly) ?? false
        }
        if let date = HTTPDate(value) {
            return date == validators.lastModified
        }
        return false
    }
}
