import HTTPTypes
import NIOCore

extension ServerResponse {
    /// Header fields that describe the body of a 200 (RFC 9110 §8) and so must not appear on a
    /// response without that body.
    private static let representationFields: [HTTPField.Name] = [
        .contentType, .contentEncoding, .contentLength, .contentLanguage, .contentRange, .contentDisposition,
    ]

    /// Whether `name` is one of ``representationFields``, which all start with `c`, as few other
    /// names do (a 304 answers every revalidation, so this runs for each field of each one).
    private static func isRepresentationField(_ name: HTTPField.Name) -> Bool {
        name.canonicalName.utf8.first == UInt8(ascii: "c") && representationFields.contains(name)
    }

    /// Header fields an error that replaces this 200 must not inherit: the body's fields, its
    /// validators, and its freshness (a 412 or 416 with `max-age` would be stored by caches).
    private static let representationAndCachingFields: [HTTPField.Name] =
        representationFields + [.eTag, .lastModified, .cacheControl, .expires, .acceptRanges, .age]

    /// This 200 as `304 Not Modified` (RFC 9110 §15.4.5): no body; keeps `ETag`, `Cache-Control`,
    /// `Vary`, `Date`, `Expires`, `Content-Location` and the non-representation fields (CORS,
    /// `X-Cache`, `Age`); drops the body's fields, and `Last-Modified` when an `ETag` is present.
    /// Uses the fields ``prepareNotModified()`` kept, when there are any.
    func notModified() -> ServerResponse {
        ServerResponse(status: .notModified, headerFields: notModifiedFields ?? makeNotModifiedFields())
    }

    /// Builds the fields of this response as a 304 now, so that each ``notModified()`` of it (and
    /// of its copies) costs no copy of the field list: for a response served many times, as the
    /// edge serves a hit.
    mutating func prepareNotModified() {
        notModifiedFields = makeNotModifiedFields()
    }

    private func makeNotModifiedFields() -> HTTPFields {
        let hasEntityTag = headerFields.contains(.eTag)
        return headerFields(dropping: { name in
            Self.isRepresentationField(name) || (hasEntityTag && name == .lastModified)
        })
    }

    /// This 200 as `206 Partial Content` with the bytes at `range` of its body.
    func partialContent(_ range: Range<Int>) -> ServerResponse {
        var fields = headerFields
        fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(body.readableBytes)"
        fields[.contentLength] = String(range.count)
        return ServerResponse(status: .partialContent, headerFields: fields, body: body.slice(range))
    }

    /// `416 Range Not Satisfiable` for this 200, with `Content-Range: bytes */<length>`.
    func rangeNotSatisfiable(length: Int) -> ServerResponse {
        var response = Self.plainText(
            .rangeNotSatisfiable,
            "the representation is \(length) bytes long; request a range that starts below \(length).",
            fields: errorFields
        )
        response.headerFields[.contentRange] = "bytes */\(length)"
        return response
    }

    /// `412 Precondition Failed` for this 200, naming the field that failed.
    func preconditionFailed(_ field: HTTPField.Name) -> ServerResponse {
        let current = headerFields[.eTag].map { "ETag \($0)" } ?? headerFields[.lastModified].map { "Last-Modified \($0)" }
        return Self.plainText(
            .preconditionFailed,
            "\(field.rawName) does not hold for the current representation"
                + (current.map { " (\($0))" } ?? "") + "; fetch it again without \(field.rawName).",
            fields: errorFields
        )
    }

    /// The fields an error response replacing this 200 keeps (CORS, `Vary`, `X-Cache`, …).
    private var errorFields: HTTPFields {
        headerFields(dropping: Self.representationAndCachingFields.contains)
    }

    /// The header fields except those `drop` names: one copy of the list, from which the few
    /// dropped fields are removed (cheaper than appending the many kept ones to a new list).
    private func headerFields(dropping drop: (HTTPField.Name) -> Bool) -> HTTPFields {
        var kept = headerFields
        for index in kept.indices.reversed() where drop(kept[index].name) {
            kept.remove(at: index)
        }
        return kept
    }
}
