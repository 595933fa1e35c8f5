extension MapValue {
    /// The fields at `paths`, with everything under them, and nothing else. A map that only
    /// leads to kept fields keeps just those; one in which none of the paths exists is left
    /// out, as is a path through a value that is not a map.
    public func keepingOnly(_ paths: [FieldPath]) -> MapValue {
        var kept = MapValue()
        for field in fields {
            let tails = paths.filter { UTF8Order.equal($0.segments[0], field.key) }.map { FieldPath(segments: Array($0.segments.dropFirst())) }
            if tails.contains(where: { $0.segments.isEmpty }) {
                kept[field.key] = field.value
            } else if !tails.isEmpty, case .map(let inner) = field.value {
                let narrowed = inner.keepingOnly(tails)
                if !narrowed.isEmpty { kept[field.key] = .map(narrowed) }
            }
        }
        return kept
    }

    /// Without the fields at `paths` and everything under them; a path that does not exist, or
    /// goes through a value that is not a map, changes nothing. Maps left empty stay.
    public func removing(_ paths: [FieldPath]) -> MapValue {
        var result = self
        for path in paths where !path.segments.isEmpty {
            result.remove(path.segments[...])
        }
        return result
    }

    private mutating func remove(_ segments: ArraySlice<String>) {
        let key = segments.first!
        guard segments.count > 1 else {
            self[key] = nil
            return
        }
        guard case .map(var inner) = self[key] else { return }
        inner.remove(segments.dropFirst())
        self[key] = .map(inner)
    }
}
