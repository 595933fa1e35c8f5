import FirestoreModel
import JSONCore
import ParallelWork

/// The state file's JSON: compact, keys and documents sorted, one form per version.
///
/// ```
/// {"schema_version":1,"site_time":T,"manifest_sha256":H,"bundles":{ID:{
///   "create_time":T,"content_sha256":H,
///   "current":{PATH:[UPDATE_TIME,FINGERPRINT] | ["missing",READ_TIME]},
///   "earlier":{PATH:[[UPDATE_TIME|null,UNTIL] | ["missing",READ_TIME,UNTIL], …]}}},
///  "contents":{"field_sets":[[NAME, …] | null, …],"versions":{PATH:[[UPDATE_TIME,SET,{FIELDS}], …]}}}
/// ```
/// `contents` is the ledger (``SiteHistory/contents``): SET indexes `field_sets` (null: every
/// field known); a state without it knows no version's content.
extension SiteHistory {
    /// The file's bytes, with a final newline; the same state always gives the same bytes.
    func encoded() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.raw("{\"schema_version\":")
        writer.integer(Self.schemaVersion)
        writer.raw(",\"site_time\":")
        writer.string(siteTime.rfc3339)
        writer.raw(",\"manifest_sha256\":")
        if let manifestSHA256 { writer.string(manifestSHA256) } else { writer.null() }
        writer.raw(",\"bundles\":{")
        for (index, id) in bundles.keys.sorted(by: { UTF8Order.compare($0, $1) == .less }).enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.string(id)
            writer.raw(":")
            Self.encode(bundles[id]!, into: &writer)
        }
        writer.raw("}")
        encodeContents(into: &writer)
        writer.raw("}\n")
        return writer.bytes
    }

    private func encodeContents(into writer: inout JSONWriter) {
        guard !contents.isEmpty else { return }
        var sets: [[String]?] = []
        var setIndex: [[String]?: Int] = [:]
        func index(of known: [String]?) -> Int {
            if let found = setIndex[known] { return found }
            sets.append(known)
            setIndex[known] = sets.count - 1
            return sets.count - 1
        }
        // Sorted with their versions, so that no path is looked up again (a ledger lists every
        // document a site ships).
        let ledger = contents.sorted(byPath: \.key)
        var body = JSONWriter(reservingCapacity: ledger.count * 96)
        for (position, (path, versions)) in ledger.enumerated() {
            if position > 0 { body.byte(UInt8(ascii: ",")) }
            Self.string(path, into: &body)
            body.raw(":[")
            for (number, version) in versions.sorted(by: { $0.updateTime < $1.updateTime }).enumerated() {
                if number > 0 { body.byte(UInt8(ascii: ",")) }
                body.raw("[")
                body.string(version.updateTime.rfc3339)
                body.byte(UInt8(ascii: ","))
                body.integer(index(of: version.known))
                body.byte(UInt8(ascii: ","))
                version.fields.encodeFields(into: &body)
                body.raw("]")
            }
            body.raw("]")
        }
        writer.raw(",\"contents\":{\"field_sets\":[")
        for (number, set) in sets.enumerated() {
            if number > 0 { writer.byte(UInt8(ascii: ",")) }
            if let set {
                writer.raw("[")
                for (position, name) in set.enumerated() {
                    if position > 0 { writer.byte(UInt8(ascii: ",")) }
                    writer.string(name)
                }
                writer.raw("]")
            } else {
                writer.null()
            }
        }
        writer.raw("],\"versions\":{")
        writer.raw(bytes: body.bytes)
        writer.raw("}}")
    }

    private static func encode(_ history: BundleHistory, into writer: inout JSONWriter) {
        writer.raw("{\"create_time\":")
        writer.string(history.createTime.rfc3339)
        writer.raw(",\"content_sha256\":")
        writer.string(history.contentDigest)
        writer.raw(",\"current\":{")
        // Written in runs on every core (a bundle carries a hundred thousand documents), then
        // joined in order.
        let current = history.current.elements
        for run in parallelMap(runsOf: 8_192, count: current.count, threads: Processors.online, { run in
            var writer = JSONWriter(reservingCapacity: run.count * 96)
            for index in run {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                string(current[index].path, into: &writer)
                switch current[index].version {
                case .existing(let updateTime, let fingerprint):
                    writer.raw(":[")
                    writer.string(updateTime.rfc3339)
                    writer.byte(UInt8(ascii: ","))
                    writer.byte(UInt8(ascii: "\""))
                    fingerprint.withHexDigits { writer.raw(bytes: $0) }
                    writer.raw("\"]")
                case .missing(let readTime): strings(["missing", readTime.rfc3339], into: &writer, after: ":")
                }
            }
            return writer.bytes
        }) {
            writer.raw(bytes: run)
        }
        writer.raw("},\"earlier\":{")
        for (index, (path, versions)) in history.earlier.sorted(byPath: \.key).enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            string(path, into: &writer)
            writer.raw(":[")
            for (position, version) in versions.enumerated() {
                let separator: StaticString = position > 0 ? "," : ""
                switch version.kind {
                case .existing(let updateTime?): strings([updateTime.rfc3339, version.until.rfc3339], into: &writer, after: separator)
                case .existing(nil):
                    writer.raw(separator)
                    writer.raw("[null,")
                    writer.string(version.until.rfc3339)
                    writer.raw("]")
                case .missing(let readTime): strings(["missing", readTime.rfc3339, version.until.rfc3339], into: &writer, after: separator)
                }
            }
            writer.raw("]")
        }
        writer.raw("}}")
    }

    /// `path`'s `description` as a JSON string, written from its segments (a state lists every
    /// document a site ships).
    private static func string(_ path: ResourcePath, into writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "\""))
        writer.escaped(path)
        writer.byte(UInt8(ascii: "\""))
    }

    private static func strings(_ items: [String], into writer: inout JSONWriter, after separator: StaticString) {
        writer.raw(separator)
        writer.raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.string(item)
        }
        writer.raw("]")
    }

    /// Reads a state file written by ``encoded()``.
    /// - Throws: ``SiteHistoryError`` naming the file, the byte offset and what was expected.
    static func decode(_ bytes: [UInt8], file: String) throws(SiteHistoryError) -> SiteHistory {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw SiteHistoryError(file: file, offset: error.offset, message: error.message)
        }
        let reader = Reader(file: file)
        let top = try reader.object(root, "the state")
        guard let version = top["schema_version"]?.numberValue?.int64Value, version == Int64(schemaVersion) else {
            throw reader.error(top["schema_version"] ?? root, "schema_version \(schemaVersion) (written by another version of bundlepress)")
        }
        let siteTime = try reader.time(top["site_time"], "site_time", in: root)
        let manifest = try top["manifest_sha256"].flatMap { node throws(SiteHistoryError) in node.isNull ? nil : try reader.string(node, "manifest_sha256") }
        var bundles: [String: BundleHistory] = [:]
        for member in try reader.object(top["bundles"] ?? root, "bundles").members {
            bundles[member.key] = try reader.bundle(member.value)
        }
        var history = SiteHistory(siteTime: siteTime, manifestSHA256: manifest, bundles: bundles)
        if let node = top["contents"] { history.contents = try reader.contents(node) }
        return history
    }

    /// Decoding helpers that turn every mismatch into an error at the node's offset.
    private struct Reader {
        var file: String

        func error(_ node: JSONNode, _ expected: String) -> SiteHistoryError {
            SiteHistoryError(file: file, offset: node.offset, message: "expected \(expected), found \(node.kindDescription)")
        }

        func object(_ node: JSONNode, _ what: String) throws(SiteHistoryError) -> JSONObject {
            guard let object = node.objectValue else { throw error(node, "\(what) as an object") }
            return object
        }

        func string(_ node: JSONNode, _ what: String) throws(SiteHistoryError) -> String {
            guard let text = node.stringValue else { throw error(node, "\(what) as a string") }
            return text
        }

        func fingerprint(_ node: JSONNode) throws(SiteHistoryError) -> DocumentFingerprint {
            let text = try string(node, "a fingerprint")
            guard let fingerprint = DocumentFingerprint(hex: text) else {
                throw SiteHistoryError(file: file, offset: node.offset, message: "expected a fingerprint of 16 lowercase hex digits, found \"\(text)\"")
            }
            return fingerprint
        }

        func time(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SiteHistoryError) -> Timestamp {
            guard let node else { throw error(parent, "\(what)") }
            let text = try string(node, what)
            do throws(TimestampError) {
                return try Timestamp(rfc3339: text)
            } catch {
                throw SiteHistoryError(file: file, offset: node.offset, message: "\(what): \(error.message)")
            }
        }

        func path(_ text: String, at node: JSONNode) throws(SiteHistoryError) -> ResourcePath {
            guard let path = try? ResourcePath(parsing: text), path.isDocument else { throw error(node, "a document path, not \"\(text)\"") }
            return path
        }

        func bundle(_ node: JSONNode) throws(SiteHistoryError) -> BundleHistory {
            let object = try self.object(node, "a bundle's history")
            var history = BundleHistory(
                createTime: try time(object["create_time"], "create_time", in: node),
                contentDigest: try string(object["content_sha256"] ?? node, "content_sha256"), current: [:], earlier: [:])
            var current: [ShippedDocuments.Element] = []
            for member in try self.object(object["current"] ?? node, "current").members {
                let items = member.value.arrayValue ?? []
                guard items.count == 2, let first = items[0].stringValue else { throw error(member.value, "[UPDATE_TIME, FINGERPRINT] or [\"missing\", READ_TIME]") }
                let path = try path(member.key, at: member.value)
                if first == "missing" {
                    current.append((path, .missing(readTime: try time(items[1], "a read time", in: member.value))))
                } else {
                    current.append((path, .existing(updateTime: try time(items[0], "an update time", in: member.value), fingerprint: try fingerprint(items[1]))))
                }
            }
            history.current = ShippedDocuments(current)
            for member in try self.object(object["earlier"] ?? node, "earlier").members {
                let path = try path(member.key, at: member.value)
                guard let list = member.value.arrayValue else { throw error(member.value, "a list of earlier versions") }
                history.earlier[path] = try list.map { item throws(SiteHistoryError) in try earlier(item) }
            }
            return history
        }

        func contents(_ node: JSONNode) throws(SiteHistoryError) -> [ResourcePath: [ShippedContent]] {
            let object = try self.object(node, "contents")
            var sets: [[String]?] = []
            for set in object["field_sets"]?.arrayValue ?? [] {
                if set.isNull { sets.append(nil); continue }
                guard let names = set.arrayValue else { throw error(set, "a list of field names or null") }
                sets.append(try names.map { name throws(SiteHistoryError) in try string(name, "a field name") })
            }
            var contents: [ResourcePath: [ShippedContent]] = [:]
            // References in the fields are full resource names: the database given is not used.
            let database = DatabaseID(project: "state")
            for member in try self.object(object["versions"] ?? node, "versions").members {
                let path = try path(member.key, at: member.value)
                guard let list = member.value.arrayValue else { throw error(member.value, "a list of versions") }
                contents[path] = try list.map { item throws(SiteHistoryError) in
                    let parts = item.arrayValue ?? []
                    guard parts.count == 3, let set = parts[1].numberValue?.int64Value, set >= 0, Int(set) < sets.count else {
                        throw error(item, "[UPDATE_TIME, FIELD_SET, {FIELDS}]")
                    }
                    let fields: MapValue
                    do throws(JSONDecodingError) {
                        fields = try MapValue(protoJSONFields: parts[2], relativeTo: database)
                    } catch {
                        throw SiteHistoryError(file: file, offset: error.offset, message: error.message)
                    }
                    return ShippedContent(updateTime: try time(parts[0], "an update time", in: item), known: sets[Int(set)], fields: fields)
                }
            }
            return contents
        }

        func earlier(_ node: JSONNode) throws(SiteHistoryError) -> EarlierVersion {
            let items = node.arrayValue ?? []
            let shape = "[UPDATE_TIME or null, UNTIL] or [\"missing\", READ_TIME, UNTIL]"
            if items.count == 3, items[0].stringValue == "missing" {
                return EarlierVersion(kind: .missing(readTime: try time(items[1], "a read time", in: node)), until: try time(items[2], "an until time", in: node))
            }
            guard items.count == 2 else { throw error(node, shape) }
            let updateTime = items[0].isNull ? nil : try time(items[0], "an update time", in: node)
            return EarlierVersion(kind: .existing(updateTime: updateTime), until: try time(items[1], "an until time", in: node))
        }
    }
}

/// A state file that cannot be read.
public struct SiteHistoryError: Error, Sendable, CustomStringConvertible {
    public var file: String
    /// Byte offset in the file.
    public var offset: Int
    public var message: String

    public var description: String { "\(file): byte \(offset): \(message)" }
}
