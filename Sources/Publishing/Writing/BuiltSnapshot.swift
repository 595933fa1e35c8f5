import BundleFormat
import Crypto
import Foundation
import FirestoreModel
import JSONCore
import PipelineLanguage
import QueryEngine

/// A server-rendering snapshot: one named query's result, or one listed document, as the JSON the
/// Firebase JS SDK's `QuerySnapshot.toJSON()` / `DocumentSnapshot.toJSON()` make on a server and
/// `querySnapshotFromJSON` / `documentSnapshotFromJSON` / `onSnapshotResume` read back.
///
/// ```json
/// {"type":"firestore/querySnapshot/1.0","bundleSource":"QuerySnapshot","bundleName":"<query>","bundle":"<bundle text>"}
/// {"type":"firestore/documentSnapshot/1.0","bundle":"<bundle text>","bundleSource":"DocumentSnapshot","bundleName":"<path>"}
/// ```
///
/// The SDK takes every document of a query snapshot's bundle as a result and requires exactly
/// one named query in it (one document in a document snapshot's), and `onSnapshotResume` looks
/// the query up by `bundleName`: so the bundle text holds the one named query and its result
/// documents (no leavers, no missing-document markers), every time in it the site time. Its id,
/// `snapshot:<name>` or `snapshot:<path with '/' as %2F>`, is no bundle's id, so the SDK's
/// bundle cache never takes a snapshot's bundle for the site's (or the other way round).
///
/// Published as `bundles/snapshots/<stem>.<first 16 hex digits of the SHA-256>.json`: content
/// hashed like a bundle, so an unchanged snapshot keeps its file and retention lets old ones go.
/// Written as a bundle is (``BundleFiles``): streamed into a file in the scratch directory,
/// hashed on the way, never held in memory (a query of 50,000 documents makes a 75 MB snapshot).
struct BuiltSnapshot: Sendable, Equatable {
    /// What a snapshot holds.
    enum Source: Sendable, Equatable {
        case query(name: String)
        case document(ResourcePath)
    }

    var source: Source
    /// The JSON file, flushed to disk in the scratch directory.
    var path: String
    var byteCount: Int
    /// Lowercase hex SHA-256 of the file.
    var sha256: String

    /// The folder under `bundles/` snapshots are published in.
    static let folder = "snapshots"

    /// `snapshots/<stem>.<hash16>.json`, relative to `bundles/`.
    var name: String { "\(Self.folder)/\(Self.stem(of: source)).\(sha256.prefix(16)).json" }

    /// A readable file name stem: the query's name (safe already), or the document's path with
    /// `/` as `~` and every byte but letters, digits, `-`, `_` and `.` as `_`, at most 100 bytes,
    /// never starting with a dot. The hash after it tells apart stems that come out the same.
    static func stem(of source: Source) -> String {
        switch source {
        case .query(let name):
            return name
        case .document(let path):
            let safe = path.segments.joined(separator: "~").utf8.prefix(100).map { byte -> UInt8 in
                let isSafe = (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
                return isSafe ? byte : UInt8(ascii: "_")
            }
            return (safe.first == UInt8(ascii: ".") ? "_" : "") + String(decoding: safe, as: UTF8.self)
        }
    }

    /// The snapshots of one bundle: one for each of `queries` (with the entries of `entries`
    /// whose queries name it) and one for each document of `listed` that exists, with each
    /// document's fields in `setAside` as `policy` publishes them, and `siteTime` as every time the
    /// bundle text carries; written into `scratchDirectory`.
    static func build(
        bundle id: String, entries: [ShipmentPlan.Entry], queries: [BundleSelection.NamedQuery], listed: [ResourcePath], setAside: SetAsideDocuments,
        policy: FieldPolicy, siteTime: Timestamp, audience: BundleAudience, scratchDirectory: String
    ) throws(BuildError) -> [BuiltSnapshot] {
        let listed = Set(listed)
        var results: [String: [(document: Document, slot: SetAsideDocuments.Slot)]] = [:]
        var documents: [(document: Document, slot: SetAsideDocuments.Slot)] = []
        for entry in entries {
            guard case .existing(let document, let names, let slot, _) = entry else { continue }
            for name in names { results[name, default: []].append((document, slot)) }
            if listed.contains(document.path) { documents.append((document, slot)) }
        }
        let database = setAside.database
        var writers: [(source: Source, writer: BundleWriter, slots: [SetAsideDocuments.Slot])] = []
        do throws(BundleWriterError) {
            for query in queries {
                var writer = try BundleWriter(id: "snapshot:\(query.name)", snapshotTime: siteTime, database: database, audience: audience)
                try writer.addNamedQuery(name: query.name, bundledQuery: query.bundledQuery)
                let members = results[query.name] ?? []
                for member in members { try writer.addDocument(member.document, queries: [query.name]) }
                writers.append((.query(name: query.name), writer, members.map(\.slot)))
            }
            for member in documents {
                let escaped = member.document.path.segments.map { $0.replacingOccurrences(of: "%", with: "%25") }.joined(separator: "%2F")
                var writer = try BundleWriter(id: "snapshot:\(escaped)", snapshotTime: siteTime, database: database, audience: audience)
                try writer.addDocument(member.document)
                writers.append((.document(member.document.path), writer, [member.slot]))
            }
        } catch {
            throw .bundle(id: id, error)
        }
        var snapshots: [BuiltSnapshot] = []
        for (index, (source, writer, slots)) in writers.enumerated() {
            let path = "\(scratchDirectory)/snapshot.\(id).\(index).json"
            snapshots.append(try snapshot(source, of: writer, slots: slots, setAside: setAside, policy: policy, into: path))
        }
        return snapshots
    }

    /// The snapshot of `source` whose bundle text `writer` holds, the fields of its `index`th
    /// document set aside at `slots[index]`, written to `path`: the JSON around the bundle text,
    /// which goes in as a string escaped piece by piece (its metadata element first, counted
    /// before the body is encoded, as ``BundleFiles`` does).
    private static func snapshot(
        _ source: Source, of writer: BundleWriter, slots: [SetAsideDocuments.Slot], setAside: SetAsideDocuments, policy: FieldPolicy, into path: String
    ) throws(BuildError) -> BuiltSnapshot {
        do throws(PublishError) {
            let file = try OutputFile(creating: path)
            var hasher = SHA256()
            func feed(_ bytes: [UInt8]) throws(PublishError) {
                hasher.update(data: bytes)
                try file.append(bytes)
            }
            func feedEscaped(_ bundleText: [UInt8]) throws(PublishError) {
                var json = JSONWriter(reservingCapacity: bundleText.count + bundleText.count / 8)
                json.escaped(String(decoding: bundleText, as: UTF8.self))
                try feed(json.bytes)
            }
            let counted = writer.metadataElement(totalBytes: try writer.bodyByteCount(encodedFieldsCount: { (index, document) throws(PublishError) in
                try setAside.encodedFieldsCount(of: document, at: slots[index], as: policy)
            }))
            var json = JSONWriter()
            switch source {
            case .query(let name):
                // The keys in the order QuerySnapshot.toJSON() writes them.
                json.raw("{\"type\":\"firestore/querySnapshot/1.0\",\"bundleSource\":\"QuerySnapshot\",\"bundleName\":")
                json.string(name)
                json.raw(",\"bundle\":\"")
            case .document:
                // The keys in the order DocumentSnapshot.toJSON() writes them.
                json.raw("{\"type\":\"firestore/documentSnapshot/1.0\",\"bundle\":\"")
            }
            try feed(json.bytes)
            try feedEscaped(counted.element)
            try writer.encodeBody(matching: counted.metadata, encodedFields: { (index, document) throws(PublishError) in
                try setAside.encodedFields(of: document, at: slots[index], as: policy)
            }, writingTo: path) { run throws(PublishError) in try feedEscaped(run) }
            json = JSONWriter()
            json.raw("\"")
            if case .document(let path) = source {
                json.raw(",\"bundleSource\":\"DocumentSnapshot\",\"bundleName\":")
                json.string(path.description)
            }
            json.raw("}\n")
            try feed(json.bytes)
            try file.finish()
            return BuiltSnapshot(source: source, path: path, byteCount: file.byteCount, sha256: hasher.finalize().hex)
        } catch {
            throw .publish(error)
        }
    }
}

extension BuiltSnapshot {
    /// The snapshots larger than `budgets.max_snapshot_bytes`, by bundle.
    static func budgetViolations(_ snapshots: [(bundle: String, snapshots: [BuiltSnapshot])], budgets: SizeBudget) -> [BudgetViolation] {
        guard let limit = budgets.maxSnapshotBytes else { return [] }
        return snapshots.flatMap { bundle, snapshots in
            snapshots.filter { $0.byteCount > limit.bytes }.map { snapshot in
                let name = switch snapshot.source {
                case .query(let name): "named query \"\(name)\""
                case .document(let path): "document \(path)"
                }
                return BudgetViolation(bundle: bundle, snapshot: name, bytes: snapshot.byteCount, limit: limit)
            }
        }
    }
}
