import FirestoreModel
import JSONCore

/// Walks a bundle's elements once: framing (§1), order and pairing (§2), then each element's
/// fields through ``ElementDecoder``, collecting problems in a ``ProblemLog``.
struct BundleScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var log: ProblemLog
    private(set) var metadata: BundleMetadata?
    private(set) var namedQueries: [NamedQuery] = []
    private(set) var documents: [BundledDocument] = []

    private var queryNames: Set<[UInt8]> = []
    private var documentNames: Set<ResourceName> = []
    private var queryReferences: [(names: [String], element: Int, offset: Int)] = []
    /// The last documentMetadata that announced a document (`exists` true or unreadable), until
    /// its document arrives. `metadata` is nil when the element had errors (already logged).
    private var pending: (name: ResourceName, metadata: BundledDocumentMetadata?, element: Int, offset: Int)?
    /// Set when an element boundary could not be found; whole-bundle checks are then skipped,
    /// since they would only repeat the framing error.
    private var framingFailed = false
    private var sawDocumentMetadata = false
    /// Bytes of every element after the metadata (prefix plus JSON), as clients count them.
    private var bodyBytes: UInt64 = 0
    private var elementCount = 0
    private let missingDocuments: MissingDocuments

    init(bytes: UnsafeBufferPointer<UInt8>, database: DatabaseID?, audience: BundleAudience, missingDocuments: MissingDocuments) {
        self.bytes = bytes
        self.log = ProblemLog(database: database, audience: audience)
        self.missingDocuments = missingDocuments
    }

    mutating func run() {
        var position = 0
        while position < bytes.count {
            log.elementIndex = elementCount
            log.base = 0
            guard let next = frame(at: position) else {
                framingFailed = true
                break
            }
            position = next
            elementCount += 1
        }
        finish()
    }

    // MARK: - Framing

    /// Reads the element at `position`; returns where the next one starts, or nil to stop.
    private mutating func frame(at position: Int) -> Int? {
        guard let brace = (position..<bytes.count).first(where: { bytes[$0] == UInt8(ascii: "{") }) else {
            let onlyWhitespace = (position..<bytes.count).allSatisfy { isWhitespace(bytes[$0]) }
            log.elementIndex = nil
            log.error(.trailingBytes, at: position, "\(bytes.count - position) \(onlyWhitespace ? "whitespace" : "stray") byte(s) after the last element: JS (\"Reached the end of bundle when a length string is expected\"), Android, iOS (\"Prefix string is not a valid number\") and Python (\"Expected length prefix\") fail")
            return nil
        }
        let prefix = bytes[position..<brace]
        let digits = prefix.drop(while: isWhitespace).reversed().drop(while: isWhitespace).reversed()
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            let shown = String(decoding: prefix.prefix(20), as: UTF8.self).debugDescription
            log.error(.invalidLengthPrefix, at: position, "the element's length prefix \(shown) is not a decimal number: Android (Integer.parseInt), iOS and Python fail, and JS reads it as 0 or NaN")
            return nil
        }
        if digits.count != prefix.count {
            log.error(.whitespaceInLengthPrefix, at: position, "whitespace around the length prefix: Android (NumberFormatException) and Python (\"Expected length prefix\") fail; only JS and iOS tolerate it")
        }
        guard digits.count <= 10, let length = Int(String(decoding: digits, as: UTF8.self)), length <= Int(Int32.max) else {
            log.error(.invalidLengthPrefix, at: position, "the length prefix exceeds 2147483647: Android reads it as an int and fails")
            return nil
        }
        if digits.count > 1, digits.first == UInt8(ascii: "0") {
            log.warn(once: "leading-zero", at: position, "the length prefix has a leading zero: every client reads it, but §10 writes plain decimal")
        }
        let end = brace + length
        guard end <= bytes.count else {
            log.error(.truncatedElement, at: position, "the element declares \(length) bytes but only \(bytes.count - brace) remain: JS (\"Reached the end of bundle when more is expected\"), Android, iOS and Python fail")
            return nil
        }
        let json = UnsafeBufferPointer(rebasing: bytes[brace..<end])
        let node: JSONNode
        do {
            node = try JSONParser.parse(json)
        } catch {
            return reportUnparsable(brace: brace, length: length, position: position, error: error) ? end : nil
        }
        let span = JSONSpan.scan(json, from: 0)
        if span.hasWhitespace || span.end != json.count {
            log.warn(once: "whitespace", at: brace, "whitespace inside element JSON (pretty-printed): every client reads it when the length counts it, but §10 writes compact JSON")
        }
        if span.hasNonASCII {
            log.warn(once: "non-ascii", at: brace, "raw non-ASCII bytes in element JSON: loadBundle counts UTF-8 bytes correctly, but the JS sync reader (documentSnapshotFromJSON) counts UTF-16 units; §10 escapes non-ASCII as \\uXXXX")
        }
        if elementCount > 0 { bodyBytes += UInt64(end - position) }
        log.base = brace
        handle(node, json: json, elementOffset: position)
        return end
    }

    /// Reports JSON that did not parse; returns true when the framing is still trustworthy.
    private mutating func reportUnparsable(brace: Int, length: Int, position: Int, error: JSONSyntaxError) -> Bool {
        guard let actualEnd = JSONSpan.scan(bytes, from: brace).end else {
            log.error(.invalidJSON, at: brace + error.offset, "the element is not valid JSON (\(error.message)): every client fails to parse it")
            return false
        }
        let actual = actualEnd - brace
        guard actual == length else {
            let utf16 = String(decoding: UnsafeBufferPointer(rebasing: bytes[brace..<actualEnd]), as: UTF8.self).utf16.count
            let hint = utf16 == length ? " (the prefix counts UTF-16 code units; every reader counts UTF-8 bytes)" : ""
            log.error(.lengthMismatch, at: position, "the length prefix says \(length) bytes but the JSON object is \(actual) bytes\(hint): JS (JSON.parse), Android, iOS and Python fail to parse the element")
            return false
        }
        log.error(.invalidJSON, at: brace + error.offset, "the element is not valid JSON (\(error.message)): every client fails to parse it")
        return true
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    // MARK: - Elements

    private static let elementKeys = ["metadata", "namedQuery", "documentMetadata", "document"]

    private mutating func handle(_ node: JSONNode, json: UnsafeBufferPointer<UInt8>, elementOffset: Int) {
        guard let object = node.objectValue, object.count == 1, let member = object.members.first,
              Self.elementKeys.contains(member.key)
        else {
            let keys = node.objectValue.map { $0.isEmpty ? "{}" : $0.keys.map { "\"\($0)\"" }.joined(separator: ", ") } ?? node.kindDescription
            log.error(.unknownElement, at: 0, "the element (\(keys)) is not an object with exactly one of metadata, namedQuery, documentMetadata, document: Android (\"Cannot decode unknown Bundle element\"), iOS (\"Unrecognized BundleElement\") and Python reject it, and JS silently skips it")
            return
        }
        if elementCount == 0, member.key != "metadata" {
            log.error(.metadataNotFirst, at: 0, "the first element is \(member.key), not metadata: JS (\"The first element of the bundle is not a metadata\"), Android, iOS and Python fail")
        }
        let body = member.value
        switch member.key {
        case "metadata":
            guard elementCount == 0 else {
                return log.error(.metadataNotFirst, at: 0, "a second metadata element: only the first element may be metadata; Android and iOS fail on it and Python rejects it")
            }
            metadata = ElementDecoder.metadata(body, log: &log)
        case "namedQuery":
            if sawDocumentMetadata {
                log.error(.namedQueryAfterDocuments, at: 0, "a namedQuery after the first documentMetadata: Python deserialize_bundle accepts named queries only before documents")
            }
            let (name, query) = ElementDecoder.namedQuery(body, json: json, log: &log)
            guard let name else { return }
            guard queryNames.insert(Array(name.utf8)).inserted else {
                return log.error(.duplicateNamedQuery, at: 0, "a second named query \"\(name)\": the clients keep one of them, so namedQuery(\"\(name)\") is ambiguous")
            }
            if let query { namedQueries.append(query) }
        case "documentMetadata":
            flushPending()
            sawDocumentMetadata = true
            let fields = ElementDecoder.documentMetadata(body, log: &log)
            guard let name = fields.name else { return }
            if let queries = fields.metadata?.queries, !queries.isEmpty {
                queryReferences.append((queries, elementCount, log.base))
            }
            guard documentNames.insert(name).inserted else {
                return log.error(.duplicateDocument, at: 0, "document \(name) appears twice: Android and iOS count distinct documents against totalDocuments and Python keeps only the last")
            }
            if fields.exists == false {
                checkMissingDocument(name, fields.metadata)
                if let metadata = fields.metadata { documents.append(BundledDocument(metadata: metadata, document: nil)) }
            } else {
                pending = (name, fields.metadata, elementCount, log.base)
            }
        default:
            addDocument(body)
        }
    }

    private mutating func addDocument(_ body: JSONNode) {
        let announced = pending
        pending = nil
        guard let (name, document) = ElementDecoder.document(body, log: &log) else { return }
        guard let announced, announced.name == name else {
            let why = announced.map { "follows the documentMetadata of \($0.name): JS silently attaches it to that metadata" }
                ?? "does not directly follow an exists:true documentMetadata for it: JS fails with a TypeError"
            return log.error(.documentWithoutMetadata, at: 0, "document \(name) \(why), Android and iOS fail (\"The document being added does not match the stored metadata\") and Python expects a documentMetadata")
        }
        guard let metadata = announced.metadata else { return }
        if let createTime = document.createTime, createTime > document.updateTime! {
            log.error(.timesOutOfOrder, at: 0, "document \(name) has createTime \(createTime) after updateTime \(document.updateTime!): §7/§10 require createTime ≤ updateTime")
        }
        if document.updateTime! > metadata.readTime {
            log.error(.timesOutOfOrder, at: 0, "document \(name) has updateTime \(document.updateTime!) after its readTime \(metadata.readTime): clients would cache a version newer than the read time they resume from (§7 requires updateTime ≤ readTime)")
        }
        documents.append(BundledDocument(metadata: metadata, document: document))
    }

    /// Checks a documentMetadata with exists:false against ``missingDocuments``.
    private mutating func checkMissingDocument(_ name: ResourceName, _ metadata: BundledDocumentMetadata?) {
        guard missingDocuments == .accepted else {
            return log.error(.missingDocument, at: 0, "documentMetadata with exists:false (a missing document) for \(name): JS, Android and iOS load it, but Python deserialize_bundle fails (\"Unexpected end\" / \"Expected one of ['document']\")")
        }
        guard let metadata else { return }
        if !metadata.queries.isEmpty {
            log.error(.missingDocument, at: 0, "missing document \(name) is listed as a result of \(metadata.queries.joined(separator: ", ")): a deleted document is no query's result, and the clients' named-query targets would hold a key they cannot read")
        }
        if let createTime = self.metadata?.createTime, metadata.readTime > createTime {
            log.error(.timesOutOfOrder, at: 0, "missing document \(name) has readTime \(metadata.readTime) after the bundle's createTime \(createTime): §7 requires every read time ≤ createTime")
        }
    }

    /// Reports an exists:true documentMetadata that was not followed by its document.
    private mutating func flushPending() {
        guard let announced = pending else { return }
        pending = nil
        guard let metadata = announced.metadata else { return }
        let (element, base) = (log.elementIndex, log.base)
        log.elementIndex = announced.element
        log.base = announced.offset
        log.error(.metadataWithoutDocument, at: 0, "documentMetadata \(announced.name) says exists:true but no document follows: JS fails with a TypeError, Android and iOS fail (\"Bundled documents end with a document metadata element instead of a document\" or \"does not match the stored metadata\") and Python expects a document")
        log.elementIndex = element
        log.base = base
        documents.append(BundledDocument(metadata: metadata, document: nil))
    }

    // MARK: - Whole-bundle checks

    private mutating func finish() {
        guard !framingFailed else { return }
        flushPending()
        log.elementIndex = 0
        log.base = 0
        guard let metadata else {
            if !log.errors.contains(where: { $0.elementIndex == 0 }) {
                log.error(.metadataNotFirst, at: 0, "the bundle has no metadata element: every client fails")
            }
            return
        }
        if UInt64(metadata.totalDocuments) != UInt64(documentNames.count) {
            log.error(.totalDocumentsMismatch, at: 0, "metadata.totalDocuments is \(metadata.totalDocuments) but the bundle has \(documentNames.count) distinct documents: Android (\"Expected \(metadata.totalDocuments) documents, but loaded \(documentNames.count)\") and iOS fail the load")
        }
        if metadata.totalBytes != bodyBytes {
            log.error(.totalBytesMismatch, at: 0, "metadata.totalBytes is \(metadata.totalBytes) but the elements after the metadata take \(bodyBytes) bytes: JS's load progress never reaches (or overshoots) totalBytes, and Android and iOS report the wrong value as bytesLoaded on success")
        }
        for reference in queryReferences {
            for name in reference.names where !queryNames.contains(Array(name.utf8)) {
                log.elementIndex = reference.element
                log.base = reference.offset
                log.error(.unknownQueryName, at: 0, "documentMetadata.queries names \"\(name)\", which is not a namedQuery of this bundle: Android throws a NullPointerException after applying the documents")
            }
        }
    }
}
