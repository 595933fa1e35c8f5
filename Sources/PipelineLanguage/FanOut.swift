import FirestoreModel
import JSONCore
import QueryEngine

/// A bundle's `for_each:`: the bundle entry is a template, built once per value, with the
/// placeholder `{name}` replaced by the value in the id, the named-query names, paths and query
/// values. This is the extension's `params`, done statically: one bundle per value, all listed
/// in the manifest.
///
/// ```yaml
/// - id: "stories-{category}"
///   for_each: {field: category, collection: stories}
///   queries:
///     "stories-by-category-{category}":
///       collection: stories
///       where: [[category, ==, "{category}"]]
/// ```
///
/// Values are strings or integers. A quoted placeholder standing alone as a query value takes
/// the value with its type (`"{year}"` is the integer 2024 when the field holds integers);
/// anywhere else (ids, names, paths, `!ref authors/{id}`) the value's text is spliced in.
/// Ids and names must satisfy the id rule with the value as it is: apps compute the same
/// names from the same values, so nothing is slugified.
public struct FanOut: Sendable, Equatable {
    /// Where the values come from.
    public enum Source: Sendable, Equatable {
        /// The distinct string and integer values of a field over the documents of a collection
        /// (documents where it is missing or null are skipped), in Firestore order.
        case field(FieldPath, collection: ResourcePath)
        /// The ids of the documents of a collection, in id order.
        case documents(collection: ResourcePath)
        /// The values listed in the config, in that order.
        case values([FanOutValue])
    }

    public var source: Source
    /// The placeholder's name: `as:`, else the field, `id` for documents, `value` for values.
    public var placeholder: String
    /// The bundle id as written, e.g. `stories-{category}`.
    public var idTemplate: String
    /// Where the `for_each:` is.
    public var location: SourceLocation?
    /// The fields its bundles publish: the site's rules with the template's own over them.
    public var fieldPolicy = FieldPolicy()
    /// The fields its template's queries read, as filled in with a stand-in value (the same for
    /// every value unless a field name holds the placeholder).
    public var fieldsRead: [FieldPath] = []
    /// Where the documents its bundles can carry are, when that is known before the values are:
    /// the template holds placeholders only in its id, query names, what its queries filter,
    /// order and limit by, and its `fields:`/`redact:`, and no `structured_query:`. Nil when it
    /// is not (or the values are listed: its bundles are made before reading).
    public var scope: Scope?

    /// Where the documents a `for_each`'s bundles can carry are, whatever the values.
    public struct Scope: Sendable, Equatable {
        /// Its template's queries, filled in with a stand-in value: their scopes
        /// (``QueryEngine/Query/matchesPath(_:)``) are every value's.
        public var queries: [Query]
        /// The documents its template lists or its queries' cursors are at.
        public var documents: [ResourcePath]
    }

    /// True when the values are only known once the inputs are read.
    public var dependsOnData: Bool {
        if case .values = source { return false }
        return true
    }
}

/// The value one bundle of a `for_each` was made for; the manifest lists it with the bundle.
public struct FanOutBinding: Sendable, Equatable {
    /// The bundle id template (`stories-{category}`).
    public var template: String
    /// The placeholder's name (`category`).
    public var placeholder: String
    public var value: FanOutValue
    /// The first document (in key order) the value was read from, for messages.
    public var origin: ResourcePath?

    public init(template: String, placeholder: String, value: FanOutValue, origin: ResourcePath?) {
        self.template = template
        self.placeholder = placeholder
        self.value = value
        self.origin = origin
    }

    /// `category = "news" (from stories/s1)`, for messages.
    var summary: String {
        "\(placeholder) = \(value)" + (origin.map { " (from \($0))" } ?? "")
    }
}
