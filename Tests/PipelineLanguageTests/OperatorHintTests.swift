import Testing
import JSONCore
@testable import PipelineLanguage

/// A config whose only query filters with `filter` (a YAML flow list or block list, its lines
/// indented by 8 more, from line 9).
private func filtering(_ filter: String) -> String {
    let indented = filter.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n")
    return """
    project: demo
    inputs: [data.ndjson]
    bundles:
      - id: b
        queries:
          q:
            collection: c
            where:
    \(indented)

    """
}

@Suite("Operators as YAML reads them")
struct OperatorHintTests {
    /// The whole message, as a user sees it.
    private func message(_ filter: String) -> String? {
        configError(filtering(filter))?.description
    }

    @Test func unquotedNotEqualIsATag() {
        #expect(message("  - [status, !=, draft]") == "pipeline.yml:9:22: quote the operator: '!=' (unquoted, YAML reads != as a tag)")
        #expect(message("  - - status\n    - !=\n    - draft") == "pipeline.yml:10:15: quote the operator: '!=' (unquoted, YAML reads != as a tag)")
    }

    @Test func unquotedGreaterThanBreaksTheScanner() {
        #expect(message("  - [score, >=, 400]") == "pipeline.yml:9:21: quote the operator: '>=' (unquoted, YAML reads > as the start of a folded text)")
        #expect(message("  - [score, >, 400]") == "pipeline.yml:9:21: quote the operator: '>' (unquoted, YAML reads > as the start of a folded text)")
        #expect(message("  - - score\n    - >=\n    - 400") == "pipeline.yml:10:15: quote the operator: '>=' (unquoted, YAML reads > as the start of a folded text)")
    }

    @Test func quotedOperatorsParse() throws {
        for op in ["'!='", "'>='", "'>'", "\">=\"", "<", "<=", "=="] {
            let config = try parseConfig(filtering("  - [score, \(op), 400]"))
            #expect(config.bundles[0].queries[0].query.filters.count == 1, "\(op)")
        }
    }

    @Test func otherLanguagesOperatorsGetDidYouMean() {
        let expected = "expected one of: ==, '!=', <, <=, '>', '>=', array-contains, array-contains-any, in, not-in"
        #expect(message("  - [status, =, published]") == "pipeline.yml:9:22: unknown operator \"=\"; did you mean ==? \(expected)")
        #expect(message("  - [score, =>, 4]") == "pipeline.yml:9:21: unknown operator \"=>\"; did you mean '>='? \(expected)")
        #expect(message("  - [status, <>, draft]") == "pipeline.yml:9:22: unknown operator \"<>\"; did you mean '!='? \(expected)")
        #expect(message("  - [tags, contains, go]") == "pipeline.yml:9:20: unknown operator \"contains\"; did you mean array-contains? \(expected)")
        #expect(message("  - [tags, array_contains, go]") == "pipeline.yml:9:20: unknown operator \"array_contains\"; did you mean array-contains? \(expected)")
        #expect(message("  - [tags, matches, go]") == "pipeline.yml:9:20: unknown operator \"matches\"; \(expected)")
    }

    @Test func aValueLikeAnOperatorIsNotMistaken() throws {
        // A quoted '>' elsewhere on the line, and > inside a quoted value, are left alone.
        let config = try parseConfig(filtering("  - [title, ==, '> quoted']"))
        #expect(config.bundles[0].queries.count == 1)
    }
}

@Suite("Name suggestions")
struct NameSuggestionTests {
    @Test func distanceCountsTranspositionsAndIgnoresCase() {
        #expect(NameSuggestions.distance("publishdAt", "publishedAt") == 1)
        #expect(NameSuggestions.distance("=>", ">=") == 1)
        #expect(NameSuggestions.distance("Published", "published") == 0)
        #expect(NameSuggestions.distance("staus", "status") == 1)
        #expect(NameSuggestions.distance("", "abc") == 3)
        #expect(NameSuggestions.distance("kitten", "sitting") == 3)
    }

    @Test func closestPrefersCaseThenDistanceThenOrder() {
        #expect(NameSuggestions.closest(to: "staus", among: ["title", "status", "stats", "Staus"]) == ["Staus", "status", "stats"])
        #expect(NameSuggestions.closest(to: "publishdAt", among: ["publishedAt", "published", "updatedAt"]) == ["publishedAt", "published"])
        #expect(NameSuggestions.closest(to: "x", among: ["title", "body"]).isEmpty)
        #expect(NameSuggestions.closest(to: "title", among: ["title"]).isEmpty)
        #expect(NameSuggestions.closest(to: "abcd", among: ["abce", "abcf", "abcg", "abch"], limit: 2) == ["abce", "abcf"])
    }

    @Test func didYouMeanListsThem() {
        #expect(NameSuggestions.didYouMean([]) == "")
        #expect(NameSuggestions.didYouMean(["a"]) == "did you mean \"a\"?")
        #expect(NameSuggestions.didYouMean(["a", "b"]) == "did you mean \"a\" or \"b\"?")
        #expect(NameSuggestions.didYouMean(["a", "b", "c"], quote: "") == "did you mean a, b or c?")
    }
}
