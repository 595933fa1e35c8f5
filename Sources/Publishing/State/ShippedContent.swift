import FirestoreModel
import QueryEngine

/// What the site's ledger keeps of a version some bundle shipped: the values of the fields the
/// site's named queries read, enough to tell whether a returning app's cached copy of it could
/// show in a named query of *any* bundle (``ShipmentPlanner``, "across bundles").
struct ShippedContent: Sendable, Equatable {
    /// The version (the `updateTime` it shipped with).
    var updateTime: Timestamp
    /// The top-level field names projected, in UTF-8 order, whether the version has them or not;
    /// nil when every field is known (a version read back from a published bundle).
    var known: [String]?
    /// The version's values of the `known` fields it has.
    var fields: MapValue

    /// The version as a document a query can be run against.
    func document(at path: ResourcePath) -> Document {
        Document(path: path, fields: fields, updateTime: updateTime)
    }

    /// True when the version holds every field `query` reads, so that whether it matches and
    /// where it ranks is known.
    func tells(_ fieldsRead: Set<String>) -> Bool {
        guard let known else { return true }
        return fieldsRead.allSatisfy { name in known.contains { UTF8Order.equal($0, name) } }
    }

    /// The projection of `document` onto `names` (top-level field names, in UTF-8 order).
    init(_ document: Document, updateTime: Timestamp, names: [String]) {
        self.updateTime = updateTime
        known = names
        fields = MapValue(distinctKeys: names.compactMap { name in document.fields[name].map { MapValue.Field(key: name, value: $0) } })
    }

    init(updateTime: Timestamp, known: [String]?, fields: MapValue) {
        self.updateTime = updateTime
        self.known = known
        self.fields = fields
    }

    static func == (lhs: ShippedContent, rhs: ShippedContent) -> Bool {
        lhs.updateTime == rhs.updateTime && lhs.known == rhs.known
            && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields.fields, rhs.fields.fields).allSatisfy { UTF8Order.equal($0.key, $1.key) && $0.value == $1.value }
    }
}
