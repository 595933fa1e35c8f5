import FirestoreModel
import JSONCore
import QueryEngine
import Yams

extension QueryConfigParser {
    /// A typed literal: YAML's own types (`1` integer, `1.0` double, `.nan`, `true`, `null`,
    /// timestamps, lists, mappings) plus the tags `!timestamp` (RFC 3339 or `now-7d`), `!ref`,
    /// `!bytes`, `!geopoint [lat, lng]`, `!double` and `!int`.
    func parseValue(_ node: ConfigNode) throws(ConfigError) -> Value {
        let tag = node.tagName.rawValue
        switch node.node {
        case .scalar(let scalar):
            return try parseScalar(scalar.string, tag: tag, node: node)
        case .sequence:
            if tag == "!geopoint" {
                let parts = try node.sequence()
                guard parts.count == 2, let lat = Self.double(parts[0]), let lng = Self.double(parts[1]),
                      (-90...90).contains(lat), (-180...180).contains(lng)
                else {
                    throw node.error("!geopoint takes [latitude, longitude] within ±90 and ±180")
                }
                return .geoPoint(GeoPoint(latitude: lat, longitude: lng))
            }
            try expectNoTag(tag, node: node)
            return .array(try node.sequence().map(parseValue))
        case .mapping:
            try expectNoTag(tag, node: node)
            var pairs: [(String, Value)] = []
            for (key, _, value) in try node.namedEntries() {
                pairs.append((key, try parseValue(value)))
            }
            return .map(MapValue(pairs))
        case .alias:
            throw node.error("YAML aliases are not supported in values")
        }
    }

    private func expectNoTag(_ tag: String, node: ConfigNode) throws(ConfigError) {
        guard tag.hasPrefix("tag:yaml.org,2002:") || tag.isEmpty || tag == "!" else {
            throw node.error("the tag \(tag) does not apply to \(node.kindDescription)")
        }
    }

    private func parseScalar(_ text: String, tag: String, node: ConfigNode) throws(ConfigError) -> Value {
        switch tag {
        case "!timestamp":
            return .timestamp(try parseTimestamp(text, node: node))
        case "!ref":
            do throws(PathError) {
                let name = ResourceName.looksQualified(text) ? try ResourceName(parsing: text) : ResourceName(database: database, path: try ResourcePath(parsing: text))
                guard name.path.isDocument else { throw PathError("\"\(text)\" is not a document path") }
                return .reference(name)
            } catch {
                throw node.error("!ref: \(error.message)")
            }
        case "!bytes":
            guard let bytes = Base64.decode(text) else { throw node.error("!bytes takes base64, found \"\(text)\"") }
            return .bytes(bytes)
        case "!double":
            guard let value = Self.double(node) ?? Double(text) else { throw node.error("!double takes a number, found \"\(text)\"") }
            return .double(value)
        case "!int":
            guard let value = Int64(text) else { throw node.error("!int takes a 64-bit integer, found \"\(text)\"") }
            return .integer(value)
        case Tag.Name.int.rawValue:
            guard let value = Int64(text) else { throw node.error("\(text) is not a decimal 64-bit integer") }
            return .integer(value)
        case Tag.Name.float.rawValue:
            guard let value = Self.double(node) else { throw node.error("\(text) is not a number") }
            return .double(value)
        case Tag.Name.bool.rawValue:
            return .boolean(text.lowercased() == "true")
        case Tag.Name.null.rawValue:
            return .null
        case Tag.Name.timestamp.rawValue:
            return .timestamp(try parseTimestamp(text, node: node))
        case Tag.Name.str.rawValue, "!":
            return .string(text)
        default:
            throw node.error("unknown tag \(tag); expected !timestamp, !ref, !bytes, !geopoint, !double or !int")
        }
    }

    /// YAML floats, including `.nan`, `.inf`, `-.inf`.
    private static func double(_ node: ConfigNode) -> Double? {
        guard let text = node.scalar?.string else { return nil }
        switch text.lowercased() {
        case ".nan", "nan": return .nan
        case ".inf", "+.inf", "infinity": return .infinity
        case "-.inf", "-infinity": return -.infinity
        default: return Double(text)
        }
    }

    /// RFC 3339, or `now`, `now-7d`, `now+1h30m` relative to the snapshot time.
    private func parseTimestamp(_ text: String, node: ConfigNode) throws(ConfigError) -> Timestamp {
        if text.hasPrefix("now") {
            guard let offset = RelativeTime.seconds(text) else {
                throw node.error("relative time \"\(text)\" must look like now, now-7d or now+1h30m (units w, d, h, m, s)")
            }
            let base = context.snapshotTime ?? QueryContext.provisionalSnapshotTime
            do throws(TimestampError) {
                return try Timestamp(seconds: base.seconds + offset, nanos: base.nanos)
            } catch {
                throw node.error("\(text) is outside Firestore's time range")
            }
        }
        do throws(TimestampError) {
            return try Timestamp(rfc3339: text)
        } catch {
            throw node.error(error.message)
        }
    }
}
