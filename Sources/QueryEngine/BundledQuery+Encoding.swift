import FirestoreModel
import JSONCore

extension BundledQuery {
    /// The canonical JSON of the bundled query (bundle-format.md §10), byte-for-byte
    /// deterministic: `{"parent","structuredQuery":{…},"limitType"}`.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        encode(into: &writer)
        return writer.bytes
    }

    /// Writes the canonical JSON of the bundled query; see ``Query/encodeStructuredQuery(into:)``.
    public func encode(into writer: inout JSONWriter) {
        writer.raw("{\"parent\":")
        writer.string(parentName.description)
        writer.raw(",\"structuredQuery\":")
        query.encodeStructuredQuery(into: &writer)
        writer.raw(",\"limitType\":")
        writer.string(query.limitType.rawValue)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension Query {
    /// Writes the StructuredQuery every client reads the same way: keys in the order `from`,
    /// `where`, `orderBy`, `startAt`, `endAt`, `limit`; ``wireFilter`` (the SDKs' filter shape);
    /// explicit directions; canonical field paths; cursors with an explicit `before`; `limit`
    /// as a plain integer; the explicit orderBys and cursors exactly as given (unflipped for
    /// ``LimitType/last``). `offset` and `select` are never written.
    public func encodeStructuredQuery(into writer: inout JSONWriter) {
        writer.raw("{\"from\":[{\"collectionId\":")
        writer.string(collectionID)
        if allDescendants { writer.raw(",\"allDescendants\":true") }
        writer.raw("}]")
        if let filter = wireFilter {
            writer.raw(",\"where\":")
            filter.encode(into: &writer)
        }
        if !orderBy.isEmpty {
            writer.raw(",\"orderBy\":[")
            for (index, order) in orderBy.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.raw("{\"field\":")
                Self.encodeFieldReference(order.field, into: &writer)
                writer.raw(",\"direction\":")
                writer.string(order.direction.rawValue)
                writer.byte(UInt8(ascii: "}"))
            }
            writer.byte(UInt8(ascii: "]"))
        }
        if let startAt {
            writer.raw(",\"startAt\":")
            Self.encodeCursor(startAt.values, before: startAt.inclusive, into: &writer)
        }
        if let endAt {
            writer.raw(",\"endAt\":")
            Self.encodeCursor(endAt.values, before: !endAt.inclusive, into: &writer)
        }
        if let limit {
            writer.raw(",\"limit\":")
            writer.integer(limit)
        }
        writer.byte(UInt8(ascii: "}"))
    }

    private static func encodeCursor(_ values: [Value], before: Bool, into writer: inout JSONWriter) {
        writer.raw("{\"values\":[")
        for (index, value) in values.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            value.encode(into: &writer)
        }
        writer.raw("],\"before\":")
        writer.bool(before)
        writer.byte(UInt8(ascii: "}"))
    }

    /// `{"fieldPath":"<canonical server format>"}`.
    static func encodeFieldReference(_ field: FieldPath, into writer: inout JSONWriter) {
        writer.raw("{\"fieldPath\":")
        writer.string(field.canonicalString)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension Filter {
    /// Writes the filter as StructuredQuery `Filter` JSON exactly as it is (use ``canonical``
    /// first for the SDKs' shape): `fieldFilter{field,op,value}`, `unaryFilter{op,field}`,
    /// `compositeFilter{op,filters}`.
    public func encode(into writer: inout JSONWriter) {
        switch self {
        case .field(let field, let op, let value):
            writer.raw("{\"fieldFilter\":{\"field\":")
            Query.encodeFieldReference(field, into: &writer)
            writer.raw(",\"op\":")
            writer.string(op.rawValue)
            writer.raw(",\"value\":")
            value.encode(into: &writer)
            writer.raw("}}")
        case .unary(let field, let op):
            writer.raw("{\"unaryFilter\":{\"op\":")
            writer.string(op.rawValue)
            writer.raw(",\"field\":")
            Query.encodeFieldReference(field, into: &writer)
            writer.raw("}}")
        case .composite(let op, let filters):
            writer.raw("{\"compositeFilter\":{\"op\":")
            writer.string(op.rawValue)
            writer.raw(",\"filters\":[")
            for (index, filter) in filters.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                filter.encode(into: &writer)
            }
            writer.raw("]}}")
        }
    }
}
