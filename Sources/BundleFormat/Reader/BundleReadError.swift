/// A bundle the strict reader rejects, with every problem it found (not just the first).
///
/// Framing problems stop the scan, since later element boundaries are unknown; any other
/// problem is recorded and reading goes on, so `bundlepress verify` can list them all.
public struct BundleReadError: Error, Sendable, CustomStringConvertible {
    /// The errors, in bundle order; never empty.
    public let problems: [BundleProblem]
    /// Warnings found along the way.
    public let warnings: [BundleProblem]

    public init(problems: [BundleProblem], warnings: [BundleProblem]) {
        precondition(!problems.isEmpty, "a read error has at least one problem")
        self.problems = problems
        self.warnings = warnings
    }

    /// The codes of all problems, for quick checks.
    public var codes: [BundleProblem.Code] { problems.map(\.code) }

    public var description: String {
        let noun = problems.count == 1 ? "problem" : "problems"
        return "invalid bundle (\(problems.count) \(noun)):\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
