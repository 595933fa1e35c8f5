import SitePolicy

extension PathPattern {
    /// False only when no path matches both patterns. Two wildcard segments are taken to share
    /// a name unless their literal starts or ends disagree (`*.html` and `*.json` do), so a true
    /// answer may be wrong; a false one never is.
    func mayOverlap(with other: PathPattern) -> Bool {
        let left = segments.collapsingGlobstars(), right = other.segments.collapsingGlobstars()
        // (i, j): can left[i...] and right[j...] match the same remaining names?
        var pending = [(0, 0)]
        var seen = Set<[Int]>()
        while let (i, j) = pending.popLast() {
            if i == left.count && j == right.count { return true }
            guard seen.insert([i, j]).inserted else { continue }
            let a = i < left.count ? left[i] : nil, b = j < right.count ? right[j] : nil
            if a == .anyDepth {
                pending.append((i + 1, j))
                if b != nil { pending.append((i, j + 1)) }
            }
            if b == .anyDepth {
                pending.append((i, j + 1))
                if a != nil { pending.append((i + 1, j)) }
            }
            if let a, let b, a != .anyDepth, b != .anyDepth, Self.mayShareName(a, b) {
                pending.append((i + 1, j + 1))
            }
        }
        return false
    }

    /// True only when every path this pattern matches is matched by `other`: the two are the
    /// same pattern, or `other` is literal segments followed by `**` (`/bundles/**`, `/**`) and
    /// this pattern starts with those segments. False says nothing.
    func isCovered(by other: PathPattern) -> Bool {
        if segments.collapsingGlobstars() == other.segments.collapsingGlobstars() { return true }
        guard other.segments.last == .anyDepth else { return false }
        let prefix = other.segments.dropLast()
        guard prefix.allSatisfy(\.isLiteral), segments.count >= prefix.count else { return false }
        return zip(prefix, segments).allSatisfy { $0 == $1 }
    }

    private static func mayShareName(_ a: GlobSegment, _ b: GlobSegment) -> Bool {
        switch (a, b) {
        case (.literal(let x), .literal(let y)): return x == y
        case (.literal(let name), _): return b.matches(name)
        case (_, .literal(let name)): return a.matches(name)
        default:
            guard case .wildcard(let x) = a, case .wildcard(let y) = b,
                  let left = GlobToken.parse(x), let right = GlobToken.parse(y) else { return true }
            let (startX, startY) = (GlobToken.literalPrefix(left), GlobToken.literalPrefix(right))
            let (endX, endY) = (GlobToken.literalSuffix(left), GlobToken.literalSuffix(right))
            let dot = UInt8(ascii: ".")
            // A name starting with "." only matches a segment that starts with a literal ".".
            if (startX.first == dot) != (startY.first == dot), startX.isEmpty || startY.isEmpty { return false }
            return (startX.starts(with: startY) || startY.starts(with: startX))
                && (endX.reversed().starts(with: endY.reversed()) || endY.reversed().starts(with: endX.reversed()))
        }
    }
}
