/// One map task of a sharded build: task `index` (0-based, as the engines number their tasks)
/// reads slice `index` of `count` slices of the inputs (``InputLayout``).
public struct Shard: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The whole input, as a build on one machine reads it.
    public static let whole = Shard(index: 0, count: 1)

    /// Shards above this are refused: slices would be smaller than records.
    public static let maximumCount = 100_000

    public init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "shard \(index) of \(count)")
        self.index = index
        self.count = count
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// Reads `K/N`: slice K (0-based) of N.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError("expected K/N (slice K of N, counting from 0, e.g. 0/8 … 7/8) or auto, found \"\(text)\"")
        }
        try self.init(checking: index, count: count, source: text)
    }

    /// The shard an engine's task is: the first of these environment variables that is set.
    /// - `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job), with `shards` (its `completions`);
    /// - `CLOUD_RUN_TASK_INDEX` and `CLOUD_RUN_TASK_COUNT` (a Cloud Run job);
    /// - `AWS_BATCH_JOB_ARRAY_INDEX` (an AWS Batch array job), with `shards` (its array size).
    ///
    /// `shards`, when given, must agree with a count the environment gives.
    public static func fromEnvironment(_ environment: [String: String], shards: Int?) throws(ShardError) -> Shard {
        for (indexVariable, countVariable, size) in engines {
            guard let indexText = environment[indexVariable] else { continue }
            guard let index = Int(indexText) else {
                throw ShardError("\(indexVariable)=\(indexText) is not a task index")
            }
            let given = countVariable.flatMap { environment[$0] }
            if let countVariable, let given, Int(given) == nil {
                throw ShardError("\(countVariable)=\(given) is not a task count")
            }
            let fromEnvironment = given.flatMap { Int($0) }
            if let shards, let fromEnvironment, shards != fromEnvironment {
                throw ShardError("--shards \(shards) disagrees with \(countVariable!)=\(fromEnvironment)")
            }
            guard let count = fromEnvironment ?? shards else {
                throw ShardError("\(indexVariable) is set but the number of shards is not: pass --shards N (\(size))")
            }
            return try Shard(checking: index, count: count, source: "\(indexVariable)=\(indexText)")
        }
        let names = engines.map(\.index).joined(separator: ", ")
        throw ShardError("--shard auto found none of \(names) in the environment; give the shard as --shard K/N")
    }

    /// The engines' task index variables, each with its task count variable when it has one,
    /// and what the count is called there.
    private static let engines: [(index: String, count: String?, size: String)] = [
        ("JOB_COMPLETION_INDEX", nil, "the Indexed Job's completions"),
        ("CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT", "the job's task count"),
        ("AWS_BATCH_JOB_ARRAY_INDEX", nil, "the array job's size"),
    ]

    private init(checking index: Int, count: Int, source: String) throws(ShardError) {
        guard (1...Self.maximumCount).contains(count) else {
            throw ShardError("the number of shards must be 1 to \(Self.maximumCount), found \(count) (in \(source))")
        }
        guard (0..<count).contains(index) else {
            throw ShardError("shard \(index) is not one of 0 … \(count - 1) (in \(source)); shards count from 0")
        }
        self.init(index: index, count: count)
    }
}

/// A shard given on the command line or by the environment that cannot be used.
public struct ShardError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
