import FirestoreModel
import QueryEngine
import Testing
@testable import PipelineLanguage

@Suite("fields: and redact:")
struct FieldPolicyConfigTests {
    /// A site whose `users` are redacted site-wide and whose bundle adds `extra` (YAML lines).
    private func site(top: String = "redact: {users: [email, phone, settings.private]}\n", bundle: String = "", query: String = "order_by: [name]") -> String {
        """
        project: demo
        inputs: [data.ndjson]
        \(top)bundles:
          - id: people
        \(bundle)    queries:
              people:
                collection: users
                \(query)

        """
    }

    @Test func siteRulesApplyAndABundleRuleReplacesThemForItsCollection() throws {
        let config = try parseConfig(site(bundle: "    fields: {users: [name, stats.followers]}\n"))
        #expect(config.fieldPolicy.rules.map(\.collection) == ["users"])
        let policy = config.bundles[0].fieldPolicy
        #expect(policy.rules.map(\.mode) == [.allow])
        let document = Document(
            path: path("users/u1"),
            fields: MapValue([("name", .string("Ada")), ("email", .string("a@b.c")), ("stats", .map(MapValue([("followers", .integer(1)), ("views", .integer(2))])))]))
        #expect(Value.map(policy.apply(to: document).fields) == .map(MapValue([("name", .string("Ada")), ("stats", .map(MapValue([("followers", .integer(1))])))])))
        #expect(config.fieldPolicy.apply(to: document).fields.fields.map(\.key) == ["name", "stats"])
        // Another collection is published whole.
        let story = Document(path: path("stories/s1"), fields: MapValue([("email", .string("x"))]))
        #expect(Value.map(policy.apply(to: story).fields) == .map(story.fields))
    }

    @Test func aPathRuleWinsOverAnIdForTheCollectionsItMatches() throws {
        let config = try parseConfig(site(top: "redact: {comments: [author], \"stories/*/comments\": [ip]}\n"))
        let policy = config.fieldPolicy
        #expect(policy.rule(forCollection: path("stories/s1/comments"))?.fields == [try FieldPath(serverFormat: "ip")])
        #expect(policy.rule(forCollection: path("posts/p/comments"))?.fields == [try FieldPath(serverFormat: "author")])
        #expect(policy.rule(forCollection: path("stories")) == nil)
    }

    @Test func aQueryOnAFieldThatIsNotPublishedIsAnErrorAtTheQuery() throws {
        for (bundle, query, fragment) in [
            ("", "where: [[email, ==, x]]", "filters or orders on email, which is removed, in whole or in part, by redact: for users"),
            ("", "order_by: [settings]", "filters or orders on settings, which is removed"),
            ("    fields: {users: [name, stats.followers]}\n", "order_by: [stats]", "filters or orders on stats, which is not among the fields: kept for users"),
            ("    fields: {users: [name]}\n", "where: [[age, '>', 3]]", "on age, which is not among the fields: kept"),
        ] {
            let error = try #require(configError(site(bundle: bundle, query: query)))
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.location?.line == (bundle.isEmpty ? 7 : 8), "\(error)")
        }
        // A field under an allowed map, or next to a redacted one, is fine.
        _ = try parseConfig(site(bundle: "    fields: {users: [name, stats]}\n", query: "order_by: [stats.followers]"))
        _ = try parseConfig(site(query: "order_by: [settings.theme]"))
    }

    @Test func malformedRulesSayWhatIsExpected() throws {
        for (top, fragment) in [
            ("fields: {users: [name]}\nredact: {users: [email]}\n", "users has both fields: and redact:"),
            ("redact: {\"users/u1\": [email]}\n", "is not a collection"),
            ("redact: {\"*/u1/x\": [email]}\n", "is not a collection"),
            ("redact: {users: [__name__]}\n", "__name__ is the document's name"),
            ("redact: {users: []}\n", "lists no field"),
            ("redact: {users: [\"a..b\"]}\n", "empty segment"),
        ] {
            let error = try #require(configError(site(top: top)), "\(top)")
            #expect(error.message.contains(fragment), "\(error)")
        }
    }

    /// Clients keep one version of a document: two bundles that both publish documents of a
    /// collection must publish the same fields of them.
    @Test func twoBundlesMustPublishTheSameFieldsOfACollection() throws {
        let twoBundles = { (second: String) in
            """
            project: demo
            inputs: [data.ndjson]
            redact: {users: [email]}
            bundles:
              - id: a
                queries:
                  a: {collection: users}
              - id: b
            \(second)    queries:
                  b: {collection_group: users}

            """
        }
        let error = try #require(configError(twoBundles("    redact: {users: [phone]}\n")))
        #expect(error.message.contains("bundles \"a\" and \"b\" both publish documents of users with different fields: or redact: rules"), "\(error)")
        #expect(error.location?.line == 8)
        _ = try parseConfig(twoBundles("    redact: {users: [email]}\n"))
        _ = try parseConfig(twoBundles("    redact: {authors: [email]}\n"))
    }
}
