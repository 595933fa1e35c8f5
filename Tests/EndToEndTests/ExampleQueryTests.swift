import Foundation
import Testing

/// A document of the example exports, read straight from the NDJSON with JSONSerialization
/// (independently of the ExportReader and QueryEngine under test).
private struct ExportedDoc {
    var path: String
    var fields: [String: Any]

    var segments: [String] { path.split(separator: "/").map(String.init) }

    func bool(_ name: String) -> Bool? { (fields[name] as? [String: Any])?["booleanValue"] as? Bool }
    func string(_ name: String) -> String? { (fields[name] as? [String: Any])?["stringValue"] as? String }

    /// integerValue (a string) or doubleValue, as a Double.
    func number(_ name: String) -> Double? {
        guard let value = fields[name] as? [String: Any] else { return nil }
        if let text = value["integerValue"] as? String { return Double(text) }
        return (value["doubleValue"] as? NSNumber)?.doubleValue
    }

    /// A timestamp with its fraction padded to nine digits, so strings compare as times.
    func time(_ name: String) -> String? {
        ((fields[name] as? [String: Any])?["timestampValue"] as? String).map(normalizedTime)
    }
}

/// `2026-01-02T03:04:05.5Z` → `2026-01-02T03:04:05.500000000Z`.
private func normalizedTime(_ text: String) -> String {
    let body = text.dropLast()  // Z
    let parts = body.split(separator: ".", maxSplits: 1)
    let fraction = parts.count == 2 ? String(parts[1]) : ""
    return parts[0] + "." + fraction.padding(toLength: 9, withPad: "0", startingAt: 0) + "Z"
}

/// Document-key order: segment by segment, by UTF-8 bytes, shorter first.
private func keyLess(_ lhs: ExportedDoc, _ rhs: ExportedDoc) -> Bool {
    for (l, r) in zip(lhs.segments, rhs.segments) where l != r {
        return Array(l.utf8).lexicographicallyPrecedes(Array(r.utf8))
    }
    return lhs.segments.count < rhs.segments.count
}

private func loadExports(_ example: ExampleCopy) throws -> [ExportedDoc] {
    var documents: [ExportedDoc] = []
    for file in ["exports/authors.ndjson", "exports/stories.ndjson", "exports/comments.ndjson", "exports/site/config.ndjson"] {
        for line in try example.read(file).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = try #require(object["name"] as? String)
            let path = try #require(name.components(separatedBy: "/documents/").last)
            documents.append(ExportedDoc(path: path, fields: object["fields"] as? [String: Any] ?? [:]))
        }
    }
    return documents
}

/// Sorts by `key` (descending when `descending`), ties by document key in the same direction,
/// as Firestore's implicit `__name__` order does.
private func ordered(_ documents: [ExportedDoc], descending: Bool, by key: (ExportedDoc) -> Double) -> [ExportedDoc] {
    documents.sorted { a, b in
        let (ka, kb) = (key(a), key(b))
        if ka != kb { return descending ? ka > kb : ka < kb }
        return descending ? keyLess(b, a) : keyLess(a, b)
    }
}

private func ordered(_ documents: [ExportedDoc], descending: Bool, byString key: (ExportedDoc) -> String) -> [ExportedDoc] {
    documents.sorted { a, b in
        let (ka, kb) = (key(a), key(b))
        if ka != kb { return descending ? Array(ka.utf8).lexicographicallyPrecedes(Array(kb.utf8)) == false : Array(ka.utf8).lexicographicallyPrecedes(Array(kb.utf8)) }
        return descending ? keyLess(b, a) : keyLess(a, b)
    }
}

/// The published bundles as `inspect --json` reports them: named query → member paths.
private struct InspectedSite {
    var membership: [String: Set<String>] = [:]
    var fields: [String: [String: Any]] = [:]
    var snapshotTime = ""

    init(_ example: ExampleCopy) throws {
        let manifest = try example.manifest()
        snapshotTime = try #require(manifest["snapshot_time"] as? String)
        for entry in try example.manifestBundles() {
            let url = try #require(entry["url"] as? String)
            let result = try example.run("inspect", "--json", "site/" + url)
            #expect(result.status == 0, "\(result)")
            let report = try jsonObject(result.stdout)
            for query in (report["namedQueries"] as? [[String: Any]]) ?? [] {
                membership[try #require(query["name"] as? String)] = []
            }
            for document in try #require(report["documents"] as? [[String: Any]]) {
                let metadata = try #require(document["metadata"] as? [String: Any])
                let name = try #require(metadata["name"] as? String)
                let path = try #require(name.components(separatedBy: "/documents/").last)
                fields[path] = (document["document"] as? [String: Any])?["fields"] as? [String: Any]
                for query in (metadata["queries"] as? [String]) ?? [] {
                    membership[query, default: []].insert(path)
                }
            }
        }
    }
}

@Suite("The example's named queries")
struct ExampleQueryTests {
    /// `bundlepress query` over the example's exports finds each collection's documents exactly
    /// as the NDJSON lists them (read here with JSONSerialization), in document-key order.
    @Test func theReaderAndEngineSeeEveryExportedDocument() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let documents = try loadExports(example)
        #expect(documents.count == 536)
        let exports = ["exports/authors.ndjson", "exports/stories.ndjson", "exports/comments.ndjson", "exports/site/config.ndjson"]
        func query(_ from: String, where filter: String? = nil) throws -> [String] {
            let structuredQuery = "{\"from\": [\(from)]" + (filter.map { ", \"where\": \($0)" } ?? "") + "}"
            try example.write("query.json", "{\"parent\": \"projects/bundlepress-demo/databases/(default)/documents\", \"structuredQuery\": \(structuredQuery)}")
            let result = try runBundlepress(["query", "--structured-query", "query.json", "--input"] + exports + ["--format", "paths"], in: example.path)
            try #require(result.status == 0, "\(result)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        func paths(_ kept: (ExportedDoc) -> Bool) -> [String] { documents.filter(kept).sorted(by: keyLess).map(\.path) }

        let authors = try query("{\"collectionId\": \"authors\"}")
        #expect(authors.count == 24)
        #expect(authors == paths { $0.segments.first == "authors" && $0.segments.count == 2 })
        let stories = try query("{\"collectionId\": \"stories\"}")
        #expect(stories.count == 160)
        #expect(stories == paths { $0.segments.first == "stories" && $0.segments.count == 2 })
        let published = try query("{\"collectionId\": \"stories\"}",
            where: "{\"fieldFilter\": {\"field\": {\"fieldPath\": \"published\"}, \"op\": \"EQUAL\", \"value\": {\"booleanValue\": true}}}")
        #expect(published.count == 136)
        #expect(published == paths { $0.segments.first == "stories" && $0.segments.count == 2 && $0.bool("published") == true })
        let comments = try query("{\"collectionId\": \"comments\", \"allDescendants\": true}")
        #expect(comments.count == 350)
        #expect(comments == paths { $0.segments.count == 4 && $0.segments[2] == "comments" })
        #expect(try query("{\"collectionId\": \"site\"}") == paths { $0.segments.first == "site" })
        #expect(authors.count + stories.count + comments.count + 2 == documents.count)
    }

    @Test func queryResultsMatchTheSampleData() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let build = try example.run("build", "--quiet")
        try #require(build.status == 0, "\(build)")
        let site = try InspectedSite(example)
        let documents = try loadExports(example)
        let stories = documents.filter { $0.segments.first == "stories" && $0.segments.count == 2 }
        let published = stories.filter { $0.bool("published") == true }
        func paths(_ list: some Sequence<ExportedDoc>) -> Set<String> { Set(list.map(\.path)) }

        let categories = ["culture", "science", "sport", "tech", "world"]
        #expect(Set(site.membership.keys) == Set([
            "latest-stories", "featured-stories", "tech-and-science", "recent-stories", "high-score-archive", "first-stories",
            "active-authors", "top-comments",
        ] + categories.map { "section-\($0)-latest" }))

        // section-<category>-latest (for_each over stories.category): that category, published, newest first, 20.
        #expect(Set(stories.compactMap { $0.string("category") }) == Set(categories))
        for category in categories {
            let newest = ordered(published.filter { $0.string("category") == category }, descending: true, byString: { $0.time("publishedAt") ?? "" })
            #expect(site.membership["section-\(category)-latest"] == paths(newest.prefix(20)), "\(category)")
        }

        // latest-stories: published, newest first, 20.
        let latest = ordered(published, descending: true, byString: { $0.time("publishedAt") ?? "" })
        #expect(latest.first?.path == "stories/satellite-operators-cut-prices-on-passkey-logins")
        #expect(site.membership["latest-stories"] == paths(latest.prefix(20)))
        #expect(site.membership["latest-stories"]?.count == 20)

        // featured-stories: featured and published, highest score first, 6.
        let featured = ordered(published.filter { $0.bool("featured") == true }, descending: true, by: { $0.number("score") ?? -1 })
        #expect(featured.first?.path == "stories/coastal-cities-rally-behind-a-disputed-census")
        #expect(featured.first?.number("score") == 497)
        #expect(site.membership["featured-stories"] == paths(featured.prefix(6)))
        #expect(site.membership["featured-stories"]?.contains("stories/coastal-cities-rally-behind-a-disputed-census") == true)
        // Bundles write integers as JSON integer literals (bundle-format.md §10).
        let heroScore = (site.fields["stories/coastal-cities-rally-behind-a-disputed-census"]?["score"] as? [String: Any])?["integerValue"] as? NSNumber
        #expect(heroScore?.int64Value == 497)

        // tech-and-science: category in [tech, science], published, newest first, 30.
        let techScience = ordered(published.filter { ["tech", "science"].contains($0.string("category") ?? "") }, descending: true, byString: { $0.time("publishedAt") ?? "" })
        #expect(site.membership["tech-and-science"] == paths(techScience.prefix(30)))

        // recent-stories: published within 30 days of the snapshot time.
        let snapshot = try #require(ISO8601DateFormatter().date(from: site.snapshotTime.replacingOccurrences(of: #"\.\d+Z$"#, with: "Z", options: .regularExpression)))
        let fraction = site.snapshotTime.split(separator: ".").last.map { "." + $0 } ?? ".000000000Z"
        let cutoffPrefix = ISO8601DateFormatter().string(from: snapshot.addingTimeInterval(-30 * 86_400)).dropLast()
        let cutoff = cutoffPrefix + fraction
        let recent = published.filter { ($0.time("publishedAt") ?? "") >= cutoff }
        #expect(!recent.isEmpty)
        #expect(site.membership["recent-stories"] == paths(recent))

        // high-score-archive: published, score below 400 (start_after [400] in descending order), 25.
        let archive = ordered(published.filter { ($0.number("score") ?? .infinity) < 400 }, descending: true, by: { $0.number("score") ?? -1 })
        #expect(site.membership["high-score-archive"] == paths(archive.prefix(25)))
        #expect(site.membership["high-score-archive"]?.count == 25)

        // first-stories: the last 5 of newest-first, i.e. the 5 oldest published stories.
        #expect(site.membership["first-stories"] == paths(latest.suffix(5)))

        // active-authors: every active author.
        let authors = documents.filter { $0.segments.first == "authors" }
        #expect(site.membership["active-authors"] == paths(authors.filter { $0.bool("active") == true }))

        // top-comments: approved comments across all stories, most likes first, 25.
        let comments = documents.filter { $0.segments.count == 4 && $0.segments[2] == "comments" }
        let top = ordered(comments.filter { $0.bool("approved") == true }, descending: true, by: { $0.number("likes") ?? -1 })
        #expect(site.membership["top-comments"] == paths(top.prefix(25)))

        // Bundles hold exactly their queries' results (plus front-page's explicit documents).
        let bundles = try example.manifestBundles()
        let front = Set(["latest-stories", "featured-stories"].flatMap { site.membership[$0] ?? [] }).union(["site/settings", "site/navigation"])
        #expect(bundles.first?["documents"] as? Int == front.count)
        let sections = Set(["tech-and-science", "recent-stories", "high-score-archive", "first-stories"].flatMap { site.membership[$0] ?? [] })
        #expect(bundles.dropFirst().first?["documents"] as? Int == sections.count)
        let community = Set(["active-authors", "top-comments"].flatMap { site.membership[$0] ?? [] })
        #expect(bundles.last?["documents"] as? Int == community.count)
    }

    @Test func namedQueriesAreStoredAsWritten() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try #require(try example.run("build", "--quiet").status == 0)
        let url = try #require(try example.manifestBundles().dropFirst().first?["url"] as? String)
        let report = try jsonObject(try example.run("inspect", "--json", "site/" + url).stdout)
        let queries = try #require(report["namedQueries"] as? [[String: Any]])
        let first = try #require(queries.first { $0["name"] as? String == "first-stories" }?["bundledQuery"] as? [String: Any])
        #expect(first["limitType"] as? String == "LAST")
        #expect(first["parent"] as? String == "projects/bundlepress-demo/databases/(default)/documents")
        let structured = try #require(first["structuredQuery"] as? [String: Any])
        let orderBy = try #require(structured["orderBy"] as? [[String: Any]])
        #expect(orderBy.count == 1)
        #expect((orderBy.first?["field"] as? [String: Any])?["fieldPath"] as? String == "publishedAt")
        #expect(orderBy.first?["direction"] as? String == "DESCENDING")
        let recent = try #require(queries.first { $0["name"] as? String == "recent-stories" }?["bundledQuery"] as? [String: Any])
        // `!timestamp now-30d` is frozen at snapshot time − 30 days, not the wall clock.
        let text = String(decoding: try JSONSerialization.data(withJSONObject: recent), as: UTF8.self)
        let snapshotYear = String(((try example.manifest())["snapshot_time"] as? String ?? "").prefix(4))
        #expect(text.contains("\"timestampValue\":\"\(snapshotYear)-"), "\(text)")
    }
}
