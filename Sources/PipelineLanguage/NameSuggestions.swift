/// The names closest to one a user wrote that matches none: for "did you mean" in messages about
/// fields, operators and named queries.
///
/// Names are compared ignoring ASCII case by the optimal string alignment distance (Levenshtein
/// with transpositions of neighbours: `=>` is one step from `>=`, `publishdAt` one from
/// `publishedAt`), over Unicode scalars.
public enum NameSuggestions {
    /// The edit distance between `a` and `b`, ignoring ASCII case: insertions, deletions,
    /// substitutions and transpositions of two neighbouring characters each count one.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = folded(a), b = folded(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Three rows of the matrix: the one before last, the last and the current.
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, previous2[j - 2] + 1) }
                current[j] = best
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// Of `candidates`, the ones close enough to `name` to be what was meant, best first: those
    /// equal to it but for case, then those within a distance that grows with its length (1 up
    /// to 4 characters, 2 up to 8, else 3), nearer first; of those as near, the ones that hold
    /// all of `name`'s characters in order (`staus` in `status`) first, then in the order of
    /// `candidates`.
    /// At most `limit`; `name` itself is never suggested.
    public static func closest(to name: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let reach = name.unicodeScalars.count <= 4 ? 1 : name.unicodeScalars.count <= 8 ? 2 : 3
        var scored: [(name: String, distance: Int, omits: Int, order: Int)] = []
        var seen: Set<String> = []
        let letters = folded(name)
        for (order, candidate) in candidates.enumerated() where candidate != name && seen.insert(candidate).inserted {
            let distance = distance(name, candidate)
            // Letters left out are the commonest slip: of two as near, the one `name` is all in.
            if distance <= reach { scored.append((candidate, distance, isSubsequence(letters, of: folded(candidate)) ? 0 : 1, order)) }
        }
        scored.sort { ($0.distance, $0.omits, $0.order) < ($1.distance, $1.omits, $1.order) }
        return scored.prefix(limit).map(\.name)
    }

    /// `did you mean "a"?`, `did you mean "a" or "b"?`, `did you mean "a", "b" or "c"?`; empty
    /// for no suggestions. `quote` wraps each name.
    public static func didYouMean(_ suggestions: [String], quote: String = "\"") -> String {
        guard let last = suggestions.last else { return "" }
        let quoted = suggestions.map { quote + $0 + quote }
        let list = suggestions.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quote + last + quote
        return "did you mean \(list)?"
    }

    private static func isSubsequence(_ part: [Unicode.Scalar], of whole: [Unicode.Scalar]) -> Bool {
        var next = part.startIndex
        for scalar in whole where next < part.endIndex && part[next] == scalar { next += 1 }
        return next == part.endIndex
    }

    private static func folded(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.map { scalar in
            (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }
    }
}
