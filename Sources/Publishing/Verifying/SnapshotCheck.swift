import BundleFormat
import Crypto
import FirestoreModel
import Foundation
import JSONCore

/// What `verify` checks of a site's server-rendering snapshots (``BuiltSnapshot``), each against
/// what the Firebase JS SDK's `querySnapshotFromJSON` / `documentSnapshotFromJSON` require and
/// against its bundle: the JSON has the four string fields with the SDK's `type` and
/// `bundleSource`, `bundleName` is the query's name or the document's path, the bundle text
/// passes the strict reader without missing-document markers, carries the site time as its
/// read time, and holds the one named query (as its bundle has it) with exactly the documents
/// that list it in its bundle, or the one document, as the bundle has them; the file is named
/// by its content hash.
struct SnapshotCheck {
    let siteDirectory: String
    let database: DatabaseID
    /// The readers the site's bundles are made for (its `clients:`).
    let audience: BundleAudience

    /// The problems of every snapshot `manifest` names, given the bundles read by id (a bundle
    /// that could not be read is reported already; its snapshots are checked alone).
    func problems(in manifest: Manifest, bundles: [String: BundleContents]) -> [SiteVerifier.Problem] {
        let siteTime = manifest.siteTime.flatMap { try? Timestamp(rfc3339: $0) }
        var problems: [SiteVerifier.Problem] = []
        // Those of `named_queries`, and a spec bundle's own (its query names repeat across bundles).
        var queries = manifest.namedQueries.compactMap { name, location in location.snapshot.map { (name: name, bundle: location.bundle, url: $0) } }
        for entry in manifest.bundles {
            for (name, url) in entry.snapshots ?? [:] where !queries.contains(where: { $0.url == url }) { queries.append((name, entry.id, url)) }
        }
        for query in queries.sorted(by: { ($0.name, $0.bundle) < ($1.name, $1.bundle) }) {
            problems += check(query.url, source: .query(name: query.name), siteTime: siteTime, bundle: bundles[query.bundle])
                .map { SiteVerifier.Problem(bundle: query.bundle, message: "snapshot of named query \"\(query.name)\": \($0)") }
        }
        for (documentPath, location) in (manifest.documents ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let path = try? ResourcePath(parsing: documentPath), path.isDocument, let url = location.snapshot else {
                problems.append(SiteVerifier.Problem(bundle: nil, message: "documents.\(documentPath) is not a document path with a snapshot"))
                continue
            }
            problems += check(url, source: .document(path), siteTime: siteTime, bundle: bundles[location.bundle])
                .map { SiteVerifier.Problem(bundle: location.bundle, message: "snapshot of document \(documentPath): \($0)") }
        }
        return problems
    }

    /// The problems of the snapshot at `url` (relative to the site) of `source`.
    func check(_ url: String, source: BuiltSnapshot.Source, siteTime: Timestamp?, bundle: BundleContents?) -> [String] {
        guard url.hasPrefix("bundles/\(BuiltSnapshot.folder)/"), !url.split(separator: "/").contains(".."),
            let data = FileManager.default.contents(atPath: (siteDirectory as NSString).appendingPathComponent(url))
        else {
            return ["\(url) is missing or unreadable"]
        }
        let bytes = Array(data)
        var problems: [String] = []
        let hash = SHA256.hash(data: bytes).hex.prefix(16)
        if !url.hasSuffix(".\(hash).json") { problems.append("\(url) is not named by its content hash (\(hash))") }
        let fields: [String: String]
        do {
            fields = try Self.fields(of: bytes)
        } catch {
            return problems + ["\(url): \(error.message)"]
        }
        let (type, bundleSource, bundleName) = Self.expected(source)
        if fields["type"] != type { problems.append("type is \(fields["type"].map { "\"\($0)\"" } ?? "missing"), the SDK requires \"\(type)\"") }
        if fields["bundleSource"] != bundleSource {
            problems.append("bundleSource is \(fields["bundleSource"].map { "\"\($0)\"" } ?? "missing"), the SDK requires \"\(bundleSource)\"")
        }
        if fields["bundleName"] != bundleName { problems.append("bundleName is \(fields["bundleName"].map { "\"\($0)\"" } ?? "missing"), not \"\(bundleName)\"") }
        guard let text = fields["bundle"] else { return problems + ["bundle is missing"] }
        let contents: BundleContents
        do {
            contents = try BundleReader.read(Array(text.utf8), database: database, audience: audience, missingDocuments: .rejected)
        } catch {
            return problems + error.problems.map { "its bundle: \($0)" }
        }
        if let siteTime, contents.metadata.createTime != siteTime {
            problems.append("its bundle is read at \(contents.metadata.createTime.rfc3339), not the site time \(siteTime.rfc3339)")
        }
        return problems + Self.compare(contents, source: source, bundle: bundle)
    }

    /// The `type`, `bundleSource` and `bundleName` the SDK requires of a snapshot of `source`.
    static func expected(_ source: BuiltSnapshot.Source) -> (type: String, bundleSource: String, bundleName: String) {
        switch source {
        case .query(let name): ("firestore/querySnapshot/1.0", "QuerySnapshot", name)
        case .document(let path): ("firestore/documentSnapshot/1.0", "DocumentSnapshot", path.description)
        }
    }

    /// The string fields of the JSON object `bytes` (the SDK's `validateJSON` requires strings).
    static func fields(of bytes: [UInt8]) throws(JSONSyntaxError) -> [String: String] {
        let node = try JSONParser.parse(bytes)
        guard let object = node.objectValue else { throw JSONSyntaxError(offset: 0, message: "not a JSON object") }
        var fields: [String: String] = [:]
        for member in object.members {
            guard let value = member.value.stringValue else {
                throw JSONSyntaxError(offset: member.value.offset, message: "\(member.key) is not a string")
            }
            fields[member.key] = value
        }
        return fields
    }

    /// How a snapshot's bundle `contents` differs from what its `bundle` says of `source`.
    private static func compare(_ contents: BundleContents, source: BuiltSnapshot.Source, bundle: BundleContents?) -> [String] {
        var problems: [String] = []
        switch source {
        case .query(let name):
            guard contents.namedQueries.count == 1, let query = contents.namedQueries.first, query.name == name else {
                return ["its bundle must hold exactly the named query \"\(name)\", it holds \(contents.namedQueries.map(\.name))"]
            }
            if contents.documents.contains(where: { $0.metadata.queries != [name] }) {
                problems.append("a document of its bundle is not listed as a result of \"\(name)\"")
            }
            guard let bundle else { return problems }
            if bundle.namedQueries.first(where: { $0.name == name })?.bundledQuery.bytes != query.bundledQuery.bytes {
                problems.append("its query differs from the bundle's")
            }
            let expected = bundle.documents.filter { $0.metadata.queries.contains(name) }
            if !sameDocuments(contents.documents, expected) {
                problems.append("holds \(contents.documents.count) documents, not the \(expected.count) results the bundle lists, as the bundle has them")
            }
        case .document(let path):
            guard contents.namedQueries.isEmpty, contents.documents.count == 1, contents.documents[0].metadata.name.path == path else {
                return ["its bundle must hold exactly the document \(path) and no query"]
            }
            guard let bundle else { return problems }
            if !sameDocuments(contents.documents, bundle.documents.filter { $0.metadata.name.path == path }) {
                problems.append("the document differs from the bundle's")
            }
        }
        return problems
    }

    /// True when `a` and `b` are the same version of one document with the same fields.
    private static func same(_ a: Document, _ b: Document) -> Bool {
        a.path == b.path && a.createTime == b.createTime && a.updateTime == b.updateTime && Value.map(a.fields) == Value.map(b.fields)
    }

    /// True when `a` and `b` hold the same documents (paths, times and fields), in any order.
    private static func sameDocuments(_ a: [BundledDocument], _ b: [BundledDocument]) -> Bool {
        func byPath(_ documents: [BundledDocument]) -> [ResourcePath: Document] {
            Dictionary(documents.compactMap { bundled in bundled.document.map { (bundled.metadata.name.path, $0) } }, uniquingKeysWith: { first, _ in first })
        }
        let (left, right) = (byPath(a), byPath(b))
        return a.count == b.count && left.count == a.count && left.keys == right.keys
            && left.allSatisfy { path, document in right[path].map { same(document, $0) } ?? false }
    }
}
