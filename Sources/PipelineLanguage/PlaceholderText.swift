/// Text of a `for_each` bundle with `{name}` placeholders; `{{` and `}}` stand for literal
/// braces. A name starts with a letter or `_` and goes on with letters, digits, `_` and `.`.
struct PlaceholderText: Equatable {
    enum Part: Equatable {
        case text(String)
        case placeholder(String)
    }

    let parts: [Part]

    /// Splits `text`, or explains (a sentence to follow "in \"…\": ") what is wrong with a brace.
    init(parsing text: String) throws(PlaceholderSyntaxError) {
        var parts: [Part] = []
        var literal = ""
        var characters = text[...]
        while let character = characters.popFirst() {
            switch character {
            case "{" where characters.first == "{", "}" where characters.first == "}":
                literal.append(characters.removeFirst())
            case "{":
                guard let close = characters.firstIndex(of: "}") else {
                    throw PlaceholderSyntaxError("a '{' is not closed; write {{ for a literal brace")
                }
                let name = String(characters[..<close])
                guard Self.isValidName(name) else {
                    throw PlaceholderSyntaxError("{\(name)} is not a placeholder: a name starts with a letter or _ and has only letters, digits, _ and . (write {{ for a literal brace)")
                }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(.placeholder(name))
                characters = characters[characters.index(after: close)...]
            case "}":
                throw PlaceholderSyntaxError("a '}' has no '{' before it; write }} for a literal brace")
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    /// The placeholder names, in order of appearance.
    var placeholders: [String] {
        parts.compactMap { part in
            if case .placeholder(let name) = part { return name }
            return nil
        }
    }

    /// The name, when the whole text is one placeholder (`"{category}"`).
    var solePlaceholder: String? {
        guard parts.count == 1, case .placeholder(let name) = parts[0] else { return nil }
        return name
    }

    /// The text with every placeholder replaced by `replacement` and escaped braces unescaped.
    func filled(with replacement: String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .placeholder: return replacement
            }
        }.joined()
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
    }
}

/// Why a `for_each` bundle's text is not valid placeholder syntax.
struct PlaceholderSyntaxError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
