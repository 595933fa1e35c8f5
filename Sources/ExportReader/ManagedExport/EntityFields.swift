import FirestoreModel

/// A datastore v3 `EntityProto` (`entity.proto`): its key and its properties assembled into
/// Firestore fields.
///
/// Properties come from `property` (indexed) and then `raw_property` (unindexed), as
/// `datastore_pbs.py` reads them; the elements of an array are the `multiple` properties of one
/// name, in order. A name given twice without `multiple`, or both with and without it, is an
/// error. A map is a nested `EntityProto` whose key, if any, is not a field and is ignored.
struct EntityFields {
    /// How deep maps may nest: Firestore allows 20 levels; untrusted input must not go deeper
    /// than the stack allows.
    static let maxDepth = 100

    /// The entity's key; nil for a map (or an entity without one).
    var key: ResourceName?
    var fields: MapValue

    /// Reads an `EntityProto` whose bytes `reader` covers; `depth` counts the maps around it.
    static func decode(_ reader: inout ProtoReader, depth: Int, at offset: Int) throws(ProtoError) -> EntityFields {
        guard depth <= maxDepth else {
            throw ProtoError(offset: offset, "maps nested more than \(maxDepth) deep")
        }
        var key: ResourceName?
        var indexed: [EntityProperty] = [], unindexed: [EntityProperty] = []
        while let tag = try reader.nextTag() {
            switch tag.field {
            case 13:
                try ProtoReader.expect(tag, .lengthDelimited, "key")
                var keyReader = try reader.readMessage()
                key = depth == 0 ? try EntityKey.decodeKey(&keyReader, at: tag.offset) : nil
            case 14, 15:
                try ProtoReader.expect(tag, .lengthDelimited, tag.field == 14 ? "property" : "raw_property")
                var propertyReader = try reader.readMessage()
                let property = try EntityProperty(&propertyReader, at: tag.offset, depth: depth)
                if tag.field == 14 { indexed.append(property) } else { unindexed.append(property) }
            case 4, 5, 16, 17:
                try reader.skip(tag)  // kind, kind_uri, entity_group, owner: no document data
            default:
                throw EntityKey.unknown(tag, in: "an entity")
            }
        }
        return EntityFields(key: key, fields: try assemble(indexed + unindexed))
    }

    private static func assemble(_ properties: [EntityProperty]) throws(ProtoError) -> MapValue {
        /// A field being assembled: a single value, or the elements of an array so far.
        struct Slot {
            var name: String
            var value: Value?
            var elements: [Value]
        }
        var indices: [[UInt8]: Int] = [:]
        var slots: [Slot] = []
        for property in properties {
            guard let index = indices[property.name] else {
                indices[property.name] = slots.count
                slots.append(property.multiple
                    ? Slot(name: property.displayName, value: nil, elements: [property.value])
                    : Slot(name: property.displayName, value: property.value, elements: []))
                continue
            }
            guard slots[index].value == nil, property.multiple else {
                throw ProtoError(offset: property.offset, "property \"\(property.displayName)\" appears twice without being an array (multiple); expected one value per name")
            }
            slots[index].elements.append(property.value)
        }
        return MapValue(slots.map { ($0.name, $0.value ?? .array($0.elements)) })
    }
}
