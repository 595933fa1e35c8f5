import FirestoreModel
import Testing

/// What parsing a name or path gives: its parts as bytes (a segment is never normalised, so
/// `é` and `e\u{301}` differ), or the error's message.
enum Parsed: Equatable, CustomStringConvertible {
    case name(project: [UInt8], database: [UInt8], segments: [[UInt8]])
    case error(String)

    init(_ parse: () throws(PathError) -> ResourceName) {
        do {
            let name = try parse()
            self = .name(project: Array(name.database.project.utf8), database: Array(name.database.database.utf8),
                         segments: name.path.segments.map { Array($0.utf8) })
        } catch {
            self = .error(error.message)
        }
    }

    /// A name in `database` with `segments`.
    static func name(_ database: DatabaseID, _ segments: [String]) -> Parsed {
        .name(project: Array(database.project.utf8), database: Array(database.database.utf8), segments: segments.map { Array($0.utf8) })
    }

    static func notAName(_ text: String) -> Parsed {
        .error("\"\(text)\" is not a resource name of the form projects/{project}/databases/{database}/documents/…")
    }

    static func emptyInName(_ text: String) -> Parsed { .error("\"\(text)\" has an empty path segment") }

    static func emptyInPath(_ text: String) -> Parsed {
        .error("\"\(text)\" has an empty path segment (a leading, trailing or doubled '/')")
    }

    static func notADocument(_ text: String) -> Parsed {
        .error("\"\(text)\" does not name a document (it needs an even number of path segments)")
    }

    var description: String {
        switch self {
        case let .name(project, database, segments):
            "\(String(decoding: project, as: UTF8.self))|\(String(decoding: database, as: UTF8.self))|"
                + segments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|")
        case let .error(message): message
        }
    }
}

/// Resource names and relative paths are accepted and rejected exactly as they were when they
/// were split into Strings: the same parts, the same errors.
@Suite struct ResourceNameParsingTests {
    static let target = DatabaseID(project: "t")
    static let p = DatabaseID(project: "p", database: "d")

    /// A name, what `ResourceName(parsing:)` gives, and what `ResourceName(documentName:relativeTo: target)` gives.
    static let names: [(String, Parsed, Parsed)] = {
        let n = "projects/p/databases/d/documents"
        let named = "projects/p/databases/(default)/documents"
        return [
            (n, .name(p, []), .notADocument(n)),
            (n + "/c", .name(p, ["c"]), .notADocument(n + "/c")),
            (n + "/c/x", .name(p, ["c", "x"]), .name(p, ["c", "x"])),
            (n + "/c/x/s/y", .name(p, ["c", "x", "s", "y"]), .name(p, ["c", "x", "s", "y"])),
            (named + "/c/x", .name(DatabaseID(project: "p"), ["c", "x"]), .name(DatabaseID(project: "p"), ["c", "x"])),
            ("projects/t/databases/(default)/documents/c/x", .name(target, ["c", "x"]), .name(target, ["c", "x"])),
            // The target's project under another database, and the other way round.
            ("projects/t/databases/d/documents/c/x", .name(DatabaseID(project: "t", database: "d"), ["c", "x"]),
             .name(DatabaseID(project: "t", database: "d"), ["c", "x"])),
            ("projects/tt/databases/(default)/documents/c/x", .name(DatabaseID(project: "tt"), ["c", "x"]),
             .name(DatabaseID(project: "tt"), ["c", "x"])),
            ("projects/t/databases/(default)x/documents/c/x", .name(DatabaseID(project: "t", database: "(default)x"), ["c", "x"]),
             .name(DatabaseID(project: "t", database: "(default)x"), ["c", "x"])),
            // Empty segments in the path.
            (n + "/", .emptyInName(n + "/"), .emptyInName(n + "/")),
            (n + "/c/x/", .emptyInName(n + "/c/x/"), .emptyInName(n + "/c/x/")),
            (n + "//c/x", .emptyInName(n + "//c/x"), .emptyInName(n + "//c/x")),
            (n + "/c//x", .emptyInName(n + "/c//x"), .emptyInName(n + "/c//x")),
            (n + "/c/x//", .emptyInName(n + "/c/x//"), .emptyInName(n + "/c/x//")),
            // Not of the form.
            ("projects//databases/d/documents/c/x", .notAName("projects//databases/d/documents/c/x"), .notAName("projects//databases/d/documents/c/x")),
            ("projects/p/databases//documents/c/x", .notAName("projects/p/databases//documents/c/x"), .notAName("projects/p/databases//documents/c/x")),
            ("projects/p/databases/d/c/x", .notAName("projects/p/databases/d/c/x"), .notAName("projects/p/databases/d/c/x")),
            ("projects/p/databases/d", .notAName("projects/p/databases/d"), .notAName("projects/p/databases/d")),
            ("projects/p/databases/d/", .notAName("projects/p/databases/d/"), .notAName("projects/p/databases/d/")),
            ("projects/p/databases/d/documentsX/c/x", .notAName("projects/p/databases/d/documentsX/c/x"), .notAName("projects/p/databases/d/documentsX/c/x")),
            ("projects/p/databases/d/document/c/x", .notAName("projects/p/databases/d/document/c/x"), .notAName("projects/p/databases/d/document/c/x")),
            ("projects/p/databases/d/Documents/c/x", .notAName("projects/p/databases/d/Documents/c/x"), .notAName("projects/p/databases/d/Documents/c/x")),
            ("projects/p/database/d/documents/c/x", .notAName("projects/p/database/d/documents/c/x"), .notAName("projects/p/database/d/documents/c/x")),
            ("projects/p/databasesX/d/documents/c/x", .notAName("projects/p/databasesX/d/documents/c/x"), .notAName("projects/p/databasesX/d/documents/c/x")),
            ("projects/p/d/documents/c/x", .notAName("projects/p/d/documents/c/x"), .notAName("projects/p/d/documents/c/x")),
            ("projects/p/databases/d/documents\u{301}/c/x", .notAName("projects/p/databases/d/documents\u{301}/c/x"),
             .notAName("projects/p/databases/d/documents\u{301}/c/x")),
            ("projects/p", .notAName("projects/p"), .notAName("projects/p")),
            ("projects/", .notAName("projects/"), .notAName("projects/")),
            ("projects", .notAName("projects"), .notADocument("projects")),
            ("", .notAName(""), .notADocument("")),
            // Not a full name: a path relative to the target.
            ("/" + n + "/c/x", .notAName("/" + n + "/c/x"), .emptyInPath("/" + n + "/c/x")),
            ("Projects/p", .notAName("Projects/p"), .name(target, ["Projects", "p"])),
            ("projectsX/p", .notAName("projectsX/p"), .name(target, ["projectsX", "p"])),
            ("c/x", .notAName("c/x"), .name(target, ["c", "x"])),
            ("c/x/s/y", .notAName("c/x/s/y"), .name(target, ["c", "x", "s", "y"])),
            ("c", .notAName("c"), .notADocument("c")),
            ("c/x/s", .notAName("c/x/s"), .notADocument("c/x/s")),
            ("c/x/", .notAName("c/x/"), .emptyInPath("c/x/")),
            ("c//x", .notAName("c//x"), .emptyInPath("c//x")),
            ("/", .notAName("/"), .emptyInPath("/")),
            // A combining mark after `projects/` joins the `/` into one Character, so the name
            // does not start with `projects/`: it is a relative path.
            ("projects/\u{301}p", .notAName("projects/\u{301}p"), .name(target, ["projects", "\u{301}p"])),
            ("projects/\u{200D}p", .notAName("projects/\u{200D}p"), .name(target, ["projects", "\u{200D}p"])),
            ("projects/\u{301}/databases/d/documents/c/x", .name(DatabaseID(project: "\u{301}", database: "d"), ["c", "x"]),
             .notADocument("projects/\u{301}/databases/d/documents/c/x")),
            ("projects/\u{301}/databases/d/documents/c/x/y", .name(DatabaseID(project: "\u{301}", database: "d"), ["c", "x", "y"]),
             .name(target, ["projects", "\u{301}", "databases", "d", "documents", "c", "x", "y"])),
            ("projects/é/databases/d/documents/c/x", .name(DatabaseID(project: "é", database: "d"), ["c", "x"]),
             .name(DatabaseID(project: "é", database: "d"), ["c", "x"])),
            // Segments are raw bytes: not normalised, not percent-decoded.
            (n + "/c\u{301}/e\u{301}", .name(p, ["c\u{301}", "e\u{301}"]), .name(p, ["c\u{301}", "e\u{301}"])),
            (n + "/ç/é", .name(p, ["ç", "é"]), .name(p, ["ç", "é"])),
            (n + "/日本/😀", .name(p, ["日本", "😀"]), .name(p, ["日本", "😀"])),
            (n + "/c/a%2Fb", .name(p, ["c", "a%2Fb"]), .name(p, ["c", "a%2Fb"])),
            ("projects/p%2F/databases/d%20/documents/c/x", .name(DatabaseID(project: "p%2F", database: "d%20"), ["c", "x"]),
             .name(DatabaseID(project: "p%2F", database: "d%20"), ["c", "x"])),
            (n + "/c/a b\n\u{0}", .name(p, ["c", "a b\n\u{0}"]), .name(p, ["c", "a b\n\u{0}"])),
            (n + "/documents/projects", .name(p, ["documents", "projects"]), .name(p, ["documents", "projects"])),
            ("projects/projects/databases/databases/documents/documents/documents",
             .name(DatabaseID(project: "projects", database: "databases"), ["documents", "documents"]),
             .name(DatabaseID(project: "projects", database: "databases"), ["documents", "documents"])),
            (n + "/__id7__/0123456789abcdefghijklmnopqrstuvwxyz",
             .name(p, ["__id7__", "0123456789abcdefghijklmnopqrstuvwxyz"]), .name(p, ["__id7__", "0123456789abcdefghijklmnopqrstuvwxyz"])),
        ]
    }()

    @Test func namesParseAsBefore() {
        for (text, parsing, document) in Self.names {
            #expect(Parsed { () throws(PathError) in try ResourceName(parsing: text) } == parsing, "\(text.debugDescription)")
            #expect(Parsed { () throws(PathError) in try ResourceName(documentName: text, relativeTo: Self.target) } == document,
                    "\(text.debugDescription)")
        }
    }

    /// A relative path and the segments it gives, or its error.
    static let paths: [(String, [String]?)] = [
        ("", []), ("c", ["c"]), ("c/x", ["c", "x"]), ("c/x/s", ["c", "x", "s"]), ("é/e\u{301}/😀", ["é", "e\u{301}", "😀"]),
        ("projects/p/databases/d/documents", ["projects", "p", "databases", "d", "documents"]), ("a%2F/ b ", ["a%2F", " b "]),
        ("/", nil), ("/c", nil), ("c/", nil), ("c//x", nil), ("//", nil), ("c/x/", nil),
    ]

    @Test func pathsParseAsBefore() {
        for (text, segments) in Self.paths {
            let expected: Parsed = segments.map { .name(Self.target, $0) } ?? .emptyInPath(text)
            #expect(Parsed { () throws(PathError) in ResourceName(database: Self.target, path: try ResourcePath(parsing: text)) } == expected,
                    "\(text.debugDescription)")
        }
    }

    /// What splitting the name into Strings at every `/` gave, for random names.
    static func expected(parsing text: String) -> Parsed {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Array($0) }
        guard parts.count >= 5, parts[0] == Array("projects".utf8), parts[2] == Array("databases".utf8),
              parts[4] == Array("documents".utf8), !parts[1].isEmpty, !parts[3].isEmpty
        else { return .notAName(text) }
        let rest = Array(parts.dropFirst(5))
        return rest.contains(where: \.isEmpty) ? .emptyInName(text) : .name(project: parts[1], database: parts[3], segments: rest)
    }

    static func expected(documentName text: String) -> Parsed {
        let parsed: Parsed
        if text.hasPrefix("projects/") {
            parsed = expected(parsing: text)
        } else if text.isEmpty {
            parsed = .name(target, [])
        } else {
            let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Array($0) }
            parsed = parts.contains(where: \.isEmpty)
                ? .emptyInPath(text) : .name(project: Array(target.project.utf8), database: Array(target.database.utf8), segments: parts)
        }
        if case let .name(_, _, segments) = parsed, segments.isEmpty || segments.count % 2 == 1 { return .notADocument(text) }
        return parsed
    }

    @Test func randomNamesParseAsBefore() {
        let pieces = ["projects", "databases", "documents", "/", "/", "/", "/", "p", "t", "(default)", "é", "e\u{301}", "\u{301}",
                      "%2F", " ", "\u{0}", "😀", "x", "projects/t/databases/(default)/documents/", "projects/p/databases/d/documents/"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        for _ in 0..<20000 {
            let text = (0..<next(14)).map { _ in pieces[next(pieces.count)] }.joined()
            #expect(Parsed { () throws(PathError) in try ResourceName(parsing: text) } == Self.expected(parsing: text), "\(text.debugDescription)")
            #expect(Parsed { () throws(PathError) in try ResourceName(documentName: text, relativeTo: Self.target) }
                == Self.expected(documentName: text), "\(text.debugDescription)")
        }
    }
}
