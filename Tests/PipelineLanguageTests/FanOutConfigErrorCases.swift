@testable import PipelineLanguage

/// `for_each` mistakes found before any input is read, with their YAML positions.
let fanOutConfigErrorCases: [ConfigErrorCase] = {
    func bundle(_ body: String) -> String {
        "project: demo\ninputs: [data.ndjson]\nbundles:\n" + body
    }
    let query = "    queries:\n      \"q-{cat}\":\n        collection: stories\n"
    /// A bundle `s-{cat}` over the categories of stories, whose query `q-{cat}` ends with `tail`.
    let byCategory = { (tail: String) in bundle("  - id: \"s-{cat}\"\n    for_each: {field: cat, collection: stories}\n" + query + tail) }
    return [
        ConfigErrorCase(
            name: "for_each id without the placeholder",
            yaml: bundle("  - id: stories\n    for_each: {field: cat, collection: stories}\n" + query),
            line: 4, column: 9, fragments: ["the bundle id \"stories\" must use {cat}", "each needs its own id"]),
        ConfigErrorCase(
            name: "for_each query name without the placeholder",
            yaml: bundle("  - id: \"s-{cat}\"\n    for_each: {field: cat, collection: stories}\n    queries:\n      latest:\n        collection: stories\n"),
            line: 7, column: 7, fragments: ["the named query name \"latest\" must use {cat}", "unique across the site"]),
        ConfigErrorCase(
            name: "unknown placeholder",
            yaml: byCategory("        where: [[cat, ==, \"{category}\"]]\n"),
            line: 9, column: 27, fragments: ["unknown placeholder {category}", "names its values {cat}"]),
        ConfigErrorCase(
            name: "unquoted placeholder",
            yaml: byCategory("        where: [[cat, ==, {cat}]]\n"),
            line: 9, column: 27, fragments: ["{cat} without quotes is a YAML mapping; write \"{cat}\""]),
        ConfigErrorCase(
            name: "unclosed brace in an id",
            yaml: bundle("  - id: \"s-{cat\"\n    for_each: {field: cat, collection: stories}\n" + query),
            line: 4, column: 9, fragments: ["in \"s-{cat\": a '{' is not closed; write {{ for a literal brace"]),
        ConfigErrorCase(
            name: "template query checked before reading the inputs",
            yaml: byCategory("        limt: 3\n"),
            line: 9, column: 9, fragments: ["unknown key \"limt\" in bundles[0] (for each cat).queries.q-cat"]),
        ConfigErrorCase(
            name: "field without collection",
            yaml: bundle("  - id: \"s-{cat}\"\n    for_each: {field: cat}\n" + query),
            line: 5, column: 15, fragments: ["for_each: field needs collection:"]),
        ConfigErrorCase(
            name: "two sources",
            yaml: bundle("  - id: \"s-{cat}\"\n    for_each: {documents: stories, values: [a]}\n" + query),
            line: 5, column: 15, fragments: ["for_each takes one source: field with collection", "documents", "values"]),
        ConfigErrorCase(
            name: "unknown for_each key",
            yaml: bundle("  - id: \"s-{cat}\"\n    for_each: {field: cat, collection: stories, where: x}\n" + query),
            line: 5, column: 49, fragments: ["unknown key \"where\" in bundles[0].for_each", "field, collection, documents, values, as"]),
        ConfigErrorCase(
            name: "empty values",
            yaml: bundle("  - id: \"s-{value}\"\n    for_each: {values: []}\n    documents: [c/a]\n"),
            line: 5, column: 24, fragments: ["for_each.values must list at least one value"]),
        ConfigErrorCase(
            name: "repeated value",
            yaml: bundle("  - id: \"s-{value}\"\n    for_each: {values: [a, b, a]}\n    documents: [c/a]\n"),
            line: 5, column: 31, fragments: ["for_each.values lists \"a\" twice"]),
        ConfigErrorCase(
            name: "value of another type",
            yaml: bundle("  - id: \"s-{value}\"\n    for_each: {values: [a, true]}\n    documents: [c/a]\n"),
            line: 5, column: 28, fragments: ["for_each.values items must be strings or integers, found \"true\" (a boolean)"]),
        ConfigErrorCase(
            name: "value that makes an invalid id",
            yaml: bundle("  - id: \"s-{value}\"\n    for_each: {values: [\"a/b\"]}\n    documents: [c/a]\n"),
            line: 4, column: 9, fragments: ["for_each: value = \"a/b\" makes the bundle id \"s-a/b\", which is not valid"]),
        ConfigErrorCase(
            name: "invalid placeholder name",
            yaml: bundle("  - id: \"s-{x}\"\n    for_each: {values: [a], as: \"x y\"}\n    documents: [c/a]\n"),
            line: 5, column: 33, fragments: ["for_each.as \"x y\" is not a placeholder name"]),
        ConfigErrorCase(
            name: "field that cannot name a placeholder",
            yaml: bundle("  - id: \"s-{x}\"\n    for_each: {field: \"`a-b`\", collection: stories}\n    documents: [c/a]\n"),
            line: 5, column: 15, fragments: ["this field cannot name a placeholder; name it with as:"]),
        ConfigErrorCase(
            name: "document path as the collection",
            yaml: bundle("  - id: \"s-{id}\"\n    for_each: {documents: stories/s1}\n    documents: [c/a]\n"),
            line: 5, column: 27, fragments: ["\"stories/s1\" is not a collection path"]),
    ]
}()
