import SitePolicy

/// A ``PathPattern`` as a regular expression over site paths that matches exactly the paths the
/// pattern matches, for Firebase Hosting (`regex`, RE2) and nginx (`location ~`, PCRE). (Paths
/// as hosts see them: no empty segments, no trailing `/` after a file name.)
///
/// Only syntax both engines share is used (no lookaround), and `\` and `"` in the path are
/// written `\x5c` and `\x22`, so the text goes unchanged into JSON and into an nginx
/// double-quoted string. fnmatch's rule that `*`, `?` and `[…]` never match a leading `.` is
/// spelled out with classes such as `[^./]`.
struct PathRegex {
    /// The expression without anchors, for combining with others.
    let body: String
    /// False when a segment uses what ``GlobToken/parse(_:)`` does not follow; that segment
    /// is written to match any name, so the expression matches more paths than the pattern.
    let isExact: Bool

    /// `^body$`.
    var anchored: String { "^\(body)$" }

    /// The regex for `pattern`.
    init(_ pattern: PathPattern) {
        let segments = pattern.segments.collapsingGlobstars()
        var body = ""
        var isExact = true
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .anyDepth where segments.count == 1:
                body += "/.*"
            case .anyDepth:
                body += index == segments.count - 1 ? "(?:/.*)?" : "(?:/[^/]+)*"
            case .literal(let name):
                body += "/" + Self.literal(Array(name.utf8))
            case .wildcard(let text):
                if let tokens = GlobToken.parse(text), let regex = Self.segment(tokens) {
                    body += "/" + regex
                } else {
                    body += "/[^/]+"
                    isExact = false
                }
            }
        }
        self.body = body.isEmpty ? "/" : body
        self.isExact = isExact
    }

    /// The regex for `pattern`, adding to `warnings` when it matches more paths than the
    /// pattern (on `host`, in `file`, for the rule or CORS pattern `label`).
    init(_ pattern: PathPattern, label: String, file: String, host: HostingProvider, warnings: inout [HostingWarning]) {
        self.init(pattern)
        if let warning = HostingWarning.widened(self, file: file, host: host, label: label) {
            warnings.append(warning)
        }
    }

    /// A body matching what any of `regexes` matches: the one body, or `(?:a|b|…)`.
    static func alternation(_ regexes: [PathRegex]) -> String {
        regexes.count == 1 ? regexes[0].body : "(?:\(regexes.map(\.body).joined(separator: "|")))"
    }

    /// One wildcard segment, or nil when a bracket expression is left with no byte.
    private static func segment(_ tokens: [GlobToken]) -> String? {
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        var atoms: [(text: String, repeatable: Bool)] = []
        var rest = tokens[...]
        // With FNM_PERIOD only a literal `.` matches a leading dot, so the first byte a
        // wildcard matches is any byte but `.` (and `/`, which never occurs in a name).
        switch rest.first {
        case .anyByte:
            atoms.append(("[^./]", false))
            rest = rest.dropFirst()
        case .byteSet(let set):
            guard let leading = byteClass(set.removing([dot, slash])) else { return nil }
            atoms.append((leading, false))
            rest = rest.dropFirst()
        case .anyRun:
            rest = rest.drop { $0 == .anyRun }
            if case .byteSet(let set) = rest.first {
                // The run is empty and the set supplies the first byte, or the run does.
                guard let any = byteClass(set.removing([slash])), let leading = byteClass(set.removing([dot, slash])) else { return nil }
                atoms.append(("(?:[^./][^/]*\(any)|\(leading))", false))
                rest = rest.dropFirst()
            } else if rest.first == .anyByte {
                atoms.append(("[^./][^/]*", false))
                rest = rest.dropFirst()
            } else if rest.first == nil || rest.first == .literal(dot) {
                // An empty run would leave a leading dot (or no name at all).
                atoms.append(("[^./][^/]*", false))
            } else {
                atoms.append(("(?:[^./][^/]*)?", false))
            }
        case .literal, .none:
            break
        }
        for token in rest {
            switch token {
            case .literal(let byte): atoms.append((literal([byte]), false))
            case .anyByte: atoms.append(("[^/]", true))
            case .anyRun: atoms.append(("[^/]*", false))
            case .byteSet(let set):
                guard let regex = byteClass(set.removing([slash])) else { return nil }
                atoms.append((regex, true))
            }
        }
        return compressed(atoms)
    }

    /// Joins atoms, writing a run of the same class as `class{n}` (`[0-9a-f]{16}`).
    private static func compressed(_ atoms: [(text: String, repeatable: Bool)]) -> String {
        var result = ""
        var index = atoms.startIndex
        while index < atoms.endIndex {
            let atom = atoms[index]
            var end = index + 1
            while atom.repeatable, end < atoms.endIndex, atoms[end].text == atom.text { end += 1 }
            result += end - index > 1 ? "\(atom.text){\(end - index)}" : atom.text
            index = end
        }
        return result
    }

    /// Literal bytes, with regex metacharacters escaped.
    private static func literal(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            if let escaped = hexEscaped(byte) {
                text += escaped
            } else if Array(".^$|?*+()[]{}".utf8).contains(byte) {
                text += [UInt8(ascii: "\\"), byte]
            } else {
                text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A bracket expression as a regex class, or nil when it is empty.
    private static func byteClass(_ set: ByteSet) -> String? {
        guard !set.isEmpty else { return nil }
        let members = set.ranges.map { range in
            range.count == 1 ? classByte(range.lowerBound) : "\(classByte(range.lowerBound))-\(classByte(range.upperBound))"
        }
        return "[" + (set.negated ? "^" : "") + members.joined() + "]"
    }

    private static func classByte(_ byte: UInt8) -> String {
        if let escaped = hexEscaped(byte) { return String(decoding: escaped, as: UTF8.self) }
        if Array("]^-[".utf8).contains(byte) { return "\\" + String(UnicodeScalar(byte)) }
        return String(UnicodeScalar(byte))
    }

    /// `\xHH` for the bytes that must not appear as themselves: `\` and `"` (nginx unescapes
    /// them in quoted strings) and control bytes.
    private static func hexEscaped(_ byte: UInt8) -> [UInt8]? {
        guard byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") || byte < 0x20 || byte == 0x7F else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        return Array("\\x".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
    }
}

extension [GlobSegment] {
    /// The segments with each run of `**` written once (`/a/**/**/b` is `/a/**/b`).
    func collapsingGlobstars() -> [GlobSegment] {
        var result: [GlobSegment] = []
        for segment in self where !(segment == .anyDepth && result.last == .anyDepth) {
            result.append(segment)
        }
        return result
    }
}
