import FirestoreModel
import JSONCore
import PipelineLanguage

/// What the documents read hold of the fields the config names (the named queries' fields and
/// those of `fields:`/`redact:` rules), per collection id: the value types each field is found
/// with, in any document read, candidate or not. And, for suggestions, the field paths of the
/// first documents of each collection id.
///
/// Gathered while the documents are judged (``DocumentSet``), on every core, from the fields the
/// reader decodes anyway: a few look-ups a document, no walk over its other fields but for the
/// few sampled.
struct FieldCensus: Sendable {
    /// The fields counted.
    let fields: [FieldPath]
    /// The database references are decoded in (sampled documents given encoded).
    let database: DatabaseID
    /// By collection id: per field of ``fields``, the types found as bits (1 << the index of
    /// the type in Firestore's type order, ``FieldInventory/typeOrder``).
    private(set) var types: [String: [UInt16]] = [:]
    /// By collection id: every field path (canonical form) of its sampled documents.
    private(set) var names: [String: Set<String>] = [:]
    private var sampled: [String: Int] = [:]

    /// The documents of a collection id whose field names are kept for suggestions.
    static let samplesPerCollection = 64
    /// Of those, the most one run of documents takes.
    private static let samplesPerRun = 4

    init(fields: [FieldPath], database: DatabaseID) {
        self.fields = fields
        self.database = database
    }

    /// The collection ids that have all their samples: a run samples none of their documents.
    var saturated: Set<String> {
        Set(sampled.compactMap { $0.value >= Self.samplesPerCollection ? $0.key : nil })
    }

    /// What one run of documents holds, counted on one core.
    struct Tally: Sendable {
        fileprivate var types: [String: [UInt16]] = [:]
        fileprivate var names: [String: Set<String>] = [:]
        fileprivate var sampled: [String: Int] = [:]
        /// The last collection id counted, its masks and how many more of its documents this
        /// run samples, so that a run of documents of one collection looks it up once.
        private var current: (id: String, masks: [UInt16], samples: Int)?

        /// Counts `document` (with at least the census's fields; `encoded`, when given, holds all
        /// its fields as a bundle carries them).
        mutating func count(_ document: Document, encoded: [UInt8]?, census: FieldCensus, saturated: Set<String>) {
            let path = document.path
            let id = path.segments[path.count - 2]
            if current?.id != id {
                flush()
                let samples = saturated.contains(id) ? 0 : FieldCensus.samplesPerRun - sampled[id, default: 0]
                current = (id, types[id] ?? [UInt16](repeating: 0, count: census.fields.count), samples)
            }
            for (index, field) in census.fields.enumerated() {
                if let value = document.fields.value(at: field) { current!.masks[index] |= FieldCensus.bit(of: value) }
            }
            guard current!.samples > 0 else { return }
            current!.samples -= 1
            sampled[id, default: 0] += 1
            var fields = document.fields
            if let encoded, let node = try? JSONParser.parse(encoded), let all = try? MapValue(protoJSONFields: node, relativeTo: census.database) {
                fields = all
            }
            FieldCensus.walk(fields, at: []) { names[id, default: []].insert(FieldPath(segments: $0).canonicalString) }
        }

        fileprivate mutating func flush() {
            if let current { types[current.id] = current.masks }
            current = nil
        }
    }

    /// Adds what a run counted.
    mutating func merge(_ tally: consuming Tally) {
        tally.flush()
        for (id, masks) in tally.types {
            if let known = types[id] {
                types[id] = zip(known, masks).map { $0 | $1 }
            } else {
                types[id] = masks
            }
        }
        for (id, found) in tally.names where sampled[id, default: 0] < Self.samplesPerCollection { names[id, default: []].formUnion(found) }
        for (id, count) in tally.sampled { sampled[id, default: 0] += count }
    }

    /// The types `field` is found with in the documents of collection id `id` (0: in none), or
    /// nil when the census does not know: no document of that id, or a field it did not count.
    func types(of field: FieldPath, inCollection id: String) -> UInt16? {
        guard let masks = types[id], let index = fields.firstIndex(of: field) else { return nil }
        return masks[index]
    }

    /// The field paths found in the sampled documents of collection id `id`, in UTF-8 order.
    func fieldNames(inCollection id: String) -> [String] {
        (names[id] ?? []).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The bit of `value`'s type (``FieldInventory/typeOrder``).
    static func bit(of value: Value) -> UInt16 {
        let index: Int
        switch value {
        case .null: index = 0
        case .boolean: index = 1
        case .integer: index = 2
        case .double: index = 3
        case .timestamp: index = 4
        case .string: index = 5
        case .bytes: index = 6
        case .reference: index = 7
        case .geoPoint: index = 8
        case .array: index = 9
        case .map: index = value.isVector ? 10 : 11
        }
        return 1 << index
    }

    /// Calls `visit` with every field path under `map`: a map's own path before the paths under it.
    private static func walk(_ map: MapValue, at path: [String], _ visit: ([String]) -> Void) {
        for field in map.fields {
            let here = path + [field.key]
            visit(here)
            if case .map(let inner) = field.value, !field.value.isVector { walk(inner, at: here, visit) }
        }
    }
}
