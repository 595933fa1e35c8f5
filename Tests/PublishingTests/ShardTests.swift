import ExportReader
import Testing
@testable import PipelineLanguage
@testable import Publishing

@Suite("Shards and slices")
struct ShardTests {
    @Test func shardsAreGivenAsKOfN() throws {
        #expect(try Shard(parsing: "0/8") == Shard(index: 0, count: 8))
        #expect(try Shard(parsing: "7/8") == Shard(index: 7, count: 8))
        for (text, message) in [
            ("8/8", "shard 8 is not one of 0 … 7 (in 8/8); shards count from 0"),
            ("1/0", "the number of shards must be 1 to 100000, found 0 (in 1/0)"),
            ("3", "expected K/N (slice K of N, counting from 0, e.g. 0/8 … 7/8) or auto, found \"3\""),
            ("a/b", "expected K/N (slice K of N, counting from 0, e.g. 0/8 … 7/8) or auto, found \"a/b\""),
        ] {
            #expect(throws: ShardError.self) { try Shard(parsing: text) }
            do { _ = try Shard(parsing: text) } catch { #expect(error.description == message) }
        }
    }

    @Test func autoReadsEachEnginesTaskIndex() throws {
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"], shards: 8) == Shard(index: 3, count: 8))
        #expect(try Shard.fromEnvironment(["CLOUD_RUN_TASK_INDEX": "2", "CLOUD_RUN_TASK_COUNT": "5"], shards: nil) == Shard(index: 2, count: 5))
        #expect(try Shard.fromEnvironment(["CLOUD_RUN_TASK_INDEX": "2", "CLOUD_RUN_TASK_COUNT": "5"], shards: 5) == Shard(index: 2, count: 5))
        #expect(try Shard.fromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "0"], shards: 4) == Shard(index: 0, count: 4))
        let failures: [([String: String], Int?, String)] = [
            (["JOB_COMPLETION_INDEX": "3"], nil, "JOB_COMPLETION_INDEX is set but the number of shards is not: pass --shards N (the Indexed Job's completions)"),
            (["CLOUD_RUN_TASK_INDEX": "2", "CLOUD_RUN_TASK_COUNT": "5"], 4, "--shards 4 disagrees with CLOUD_RUN_TASK_COUNT=5"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "4"], 4, "shard 4 is not one of 0 … 3 (in AWS_BATCH_JOB_ARRAY_INDEX=4); shards count from 0"),
            (["JOB_COMPLETION_INDEX": "x"], 2, "JOB_COMPLETION_INDEX=x is not a task index"),
            ([:], 2, "--shard auto found none of JOB_COMPLETION_INDEX, CLOUD_RUN_TASK_INDEX, AWS_BATCH_JOB_ARRAY_INDEX in the environment; give the shard as --shard K/N"),
        ]
        for (environment, shards, message) in failures {
            do {
                let shard = try Shard.fromEnvironment(environment, shards: shards)
                Issue.record("\(environment) gave \(shard)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    /// Every byte of a cut input is in exactly one slice, uncut inputs go whole to the slice of
    /// their first byte, and empty inputs belong to a slice too.
    @Test(arguments: [1, 2, 3, 7, 50])
    func slicesCoverTheInputsOnce(count: Int) {
        let spec = InputSpec(pattern: "*", format: nil, location: nil)
        let sizes = [0, 10, 3, 0, 25, 1, 0]
        let layout = InputLayout(inputs: sizes.enumerated().map { index, size in
            InputLayout.Input(path: "f\(index)", spec: spec, size: size, dataFiles: 1, isExportFolder: false, modified: 0)
        })
        // Even inputs are NDJSON (cut), odd ones are read whole; only inputs a slice may read are asked.
        func lineFormat(_ path: String) -> ExportFormat? { Int(path.dropFirst())! % 2 == 0 ? .restNDJSON : nil }
        var bytes = Array(repeating: 0, count: sizes.count)
        var whole = Array(repeating: 0, count: sizes.count)
        for index in 0..<count {
            for piece in layout.pieces(of: Shard(index: index, count: count), lineFormat: lineFormat) {
                if let range = piece.byteRange {
                    #expect(!range.isEmpty && range.upperBound <= sizes[piece.input])
                    bytes[piece.input] += range.count
                } else {
                    whole[piece.input] += 1
                }
            }
        }
        for (index, size) in sizes.enumerated() {
            let read = whole[index] * size + bytes[index]
            #expect(read == size && (whole[index] == 1 || bytes[index] == size), "input \(index) of size \(size) in \(count) slices")
            #expect(whole[index] <= 1)
            if size == 0 { #expect(whole[index] == 1, "empty input \(index)") }
        }
    }
}
