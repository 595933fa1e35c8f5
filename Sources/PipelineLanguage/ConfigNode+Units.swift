extension ConfigNode {
    /// Multipliers of the size units, longest suffix first so `KiB` wins over `B`. Decimal
    /// units are powers of 1000 (as the build summary prints sizes), binary ones powers of 1024.
    private static let sizeUnits: [(suffix: String, bytes: Double)] = [
        ("kib", 1_024), ("mib", 1_048_576), ("gib", 1_073_741_824),
        ("kb", 1_000), ("mb", 1_000_000), ("gb", 1_000_000_000),
        ("k", 1_000), ("m", 1_000_000), ("g", 1_000_000_000), ("b", 1), ("", 1),
    ]

    /// A byte size: a plain integer (bytes) or a number with a unit, `5MB`, `512KiB`, `1.5 GB`
    /// (no unit or B: bytes; kB, MB, GB = powers of 1000; KiB, MiB, GiB = powers of 1024; case-insensitive).
    func byteSize() throws(ConfigError) -> Int {
        let expected = "\(path) must be a size such as 5MB, 512KiB or 1048576 (bytes), found \(kindDescription)"
        guard case .scalar(let scalar) = node else { throw error(expected) }
        let text = scalar.string.lowercased().replacingOccurrences(of: " ", with: "")
        guard let unit = Self.sizeUnits.first(where: { text.hasSuffix($0.suffix) }),
              let amount = Double(text.dropLast(unit.suffix.count)), amount.isFinite, amount > 0,
              amount * unit.bytes < Double(Int.max)
        else {
            throw error(expected)
        }
        return Int(amount * unit.bytes)
    }

    /// A duration such as `90s`, `10m`, `1h30m`, `2d` or `1w` (units w, d, h, m, s), in seconds.
    func duration() throws(ConfigError) -> Int64 {
        guard case .scalar(let scalar) = node, let seconds = RelativeTime.duration(Substring(scalar.string)) else {
            throw error("\(path) must be a duration such as 90s, 10m, 1h30m or 2d (units w, d, h, m, s), found \(kindDescription)")
        }
        return seconds
    }
}
