import Foundation
import Testing

/// `bundlepress build --shard … --partial …` and `--merge …` as an engine runs them.
@Suite("bundlepress build --shard / --merge")
struct ShardCommandTests {
    @Test func mapTasksFromTheEnvironmentThenTheMergePublishTheSiteAPlainBuildPublishes() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet", "--output", "plain").status == 0)
        // Three tasks of a Kubernetes Indexed Job, in any order.
        for index in [2, 0, 1] {
            let map = try example.start(
                "build", "--shard", "auto", "--shards", "3", "--partial", "partials", environment: ["JOB_COMPLETION_INDEX": "\(index)"]
            ).finish()
            #expect(map.status == 0, "\(map)")
            #expect(map.stdout.hasPrefix("Shard \(index)/3: ") && map.stdout.contains(" → partials/shard-\(index)-of-3.json ("), "\(map)")
        }
        let merge = try example.run("build", "--merge", "partials", "--json")
        #expect(merge.status == 0, "\(merge)")
        #expect(merge.stdout.contains("\"inputDocuments\" : 536"), "\(merge)")
        let site = try example.siteFiles().filter { $0.key != ".bundlepress-build.json" }
        let plain = try ExampleCopy.files(under: example.file("plain")).filter { $0.key != ".bundlepress-build.json" }
        #expect(site == plain)
        #expect(site.keys.contains("bundles/manifest.json"))
    }

    @Test func aMissingShardFailsTheMergeWithExit65AndPublishesNothing() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet", "--shard", "1/2", "--partial", "partials").status == 0)
        let merge = try example.run("build", "--merge", "partials")
        #expect(merge.status == 65, "\(merge)")
        #expect(merge.stderr.contains("cannot merge the partials: shard 0 of 2 is missing from partials: run its map task"), "\(merge)")
        #expect(!FileManager.default.fileExists(atPath: example.file("site/bundles/manifest.json")))
    }

    @Test func flagsThatDoNotGoTogetherAreRefused() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let cases: [([String], String)] = [
            (["--shard", "0/2"], "--shard needs --partial DIR"),
            (["--shard", "0/2", "--partial", "p", "--snapshot-time", "2024-01-01T00:00:00Z"], "--snapshot-time does not apply to a map task (--shard): give it to the merge (--merge)"),
            (["--shard", "0/2", "--partial", "p", "--merge", "p"], "--merge does not apply to a map task (--shard): merge once every map task has finished"),
            (["--shard", "2/2", "--partial", "p"], "--shard: shard 2 is not one of 0 … 1 (in 2/2); shards count from 0"),
            (["--shard", "0/2", "--shards", "2", "--partial", "p"], "--shards goes with --shard auto; --shard K/N says N already"),
            (["--partial", "p"], "--partial goes with --shard K/N (a map task); to merge partials, use --merge DIR"),
        ]
        for (arguments, message) in cases {
            let run = try runBundlepress(["build"] + arguments, in: example.path)
            #expect(run.status == 64, "\(arguments): \(run)")
            #expect(run.stderr.contains(message), "\(arguments): \(run)")
        }
        // A map task reads the previous state as the merge does: --output and --previous are its too.
        let judged = try runBundlepress(["build", "--quiet", "--shard", "0/1", "--partial", "p", "--output", "o", "--previous", "none"], in: example.path)
        #expect(judged.status == 0, "\(judged)")
        let auto = try example.start("build", "--shard", "auto", "--partial", "p", environment: ["JOB_COMPLETION_INDEX": "1"]).finish()
        #expect(auto.status == 64 && auto.stderr.contains("JOB_COMPLETION_INDEX is set but the number of shards is not: pass --shards N"), "\(auto)")
    }
}
