import Foundation

/// nginx reading the snippet as included in a `server { }`: its configuration syntax (words,
/// quoted strings with `\"` and `\\` escapes, `#` comments, blocks), location selection (an
/// exact `=` match; else the longest prefix, whose nested locations are searched first; then,
/// unless that prefix is `^~`, regex locations in file order, the first match winning and its
/// nested locations searched), and add_header inheritance (a location without add_header gets
/// its parent's). A location that returns 404 serves nothing; the fields are those of a 200.
struct NginxEvaluator: HostEvaluator {
    struct Directive {
        var words: [String]
        var block: [Directive]?

        var name: String { words.first ?? "" }
        var arguments: ArraySlice<String> { words.dropFirst() }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    let directives: [Directive]

    init(_ text: String) throws {
        var tokens = try Self.tokens(Array(text.unicodeScalars))[...]
        directives = try Self.parseBlock(&tokens, nested: false)
    }

    /// Extension → type from the `types { }` block.
    var types: [String: String] {
        var types: [String: String] = [:]
        for directive in directives.first(where: { $0.name == "types" })?.block ?? [] {
            for ext in directive.arguments { types[ext] = directive.name }
        }
        return types
    }

    func response(forPath path: String) -> HostResponse {
        var chain: [Directive] = []
        Self.select(path, in: directives, chain: &chain)
        guard let chosen = chain.last else { return .notServed }
        if chosen.block?.contains(where: { $0.words == ["return", "404"] }) == true { return .notServed }
        let levels = [directives] + chain.map { $0.block ?? [] }
        let headers = levels.reversed().first { $0.contains { $0.name == "add_header" } } ?? []
        var fields: [String: String] = [:]
        for directive in headers where directive.name == "add_header" {
            let words = Array(directive.arguments)
            fields[words[0].lowercased()] = fields[words[0].lowercased()].map { "\($0), \(words[1])" } ?? words[1]
        }
        return .served(fields)
    }

    /// Appends the location nginx picks for `path` among `directives` (and its nested ones).
    private static func select(_ path: String, in directives: [Directive], chain: inout [Directive]) {
        let locations = directives.filter { $0.name == "location" }
        if let exact = locations.first(where: { $0.arguments.first == "=" && $0.arguments.last == path }) {
            chain.append(exact)
            return
        }
        let prefixes = locations.filter { ($0.arguments.count == 1 || $0.arguments.first == "^~") && path.hasPrefix($0.arguments.last ?? "") }
        let prefix = prefixes.max { ($0.arguments.last ?? "").count < ($1.arguments.last ?? "").count }
        if let prefix {
            var nested: [Directive] = []
            select(path, in: prefix.block ?? [], chain: &nested)
            if !nested.isEmpty {
                chain += [prefix] + nested
                return
            }
            if prefix.arguments.first == "^~" {
                chain.append(prefix)
                return
            }
        }
        for location in locations where ["~", "~*"].contains(location.arguments.first) {
            let options: NSRegularExpression.Options = location.arguments.first == "~*" ? .caseInsensitive : []
            guard let regex = try? NSRegularExpression(pattern: location.arguments.last ?? "", options: options), regex.isFound(in: path) else {
                continue
            }
            chain.append(location)
            select(path, in: location.block ?? [], chain: &chain)
            return
        }
        if let prefix { chain.append(prefix) }
    }

    private enum Token: Equatable {
        case word(String), open, close, end
    }

    private static func tokens(_ scalars: [Unicode.Scalar]) throws -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r": index += 1
            case "#": while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "{": tokens.append(.open); index += 1
            case "}": tokens.append(.close); index += 1
            case ";": tokens.append(.end); index += 1
            case "\"", "'":
                var word = ""
                index += 1
                while index < scalars.count, scalars[index] != scalar {
                    if scalars[index] == "\\", index + 1 < scalars.count, ["\"", "'", "\\"].contains(scalars[index + 1]) { index += 1 }
                    word.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else { throw SyntaxError(description: "unterminated string") }
                tokens.append(.word(word))
                index += 1
            default:
                var word = ""
                while index < scalars.count, !" \t\n\r;{}".unicodeScalars.contains(scalars[index]) {
                    word.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    private static func parseBlock(_ tokens: inout ArraySlice<Token>, nested: Bool) throws -> [Directive] {
        var directives: [Directive] = []
        var words: [String] = []
        while let token = tokens.popFirst() {
            switch token {
            case .word(let word): words.append(word)
            case .end:
                guard !words.isEmpty else { throw SyntaxError(description: "a ; without a directive") }
                directives.append(Directive(words: words, block: nil))
                words = []
            case .open:
                guard !words.isEmpty else { throw SyntaxError(description: "a { without a directive") }
                directives.append(Directive(words: words, block: try parseBlock(&tokens, nested: true)))
                words = []
            case .close:
                guard nested, words.isEmpty else { throw SyntaxError(description: "an unexpected }") }
                return directives
            }
        }
        guard !nested, words.isEmpty else { throw SyntaxError(description: "the file ends inside a block or directive") }
        return directives
    }
}
