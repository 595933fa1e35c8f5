import SystemSupport
import Testing

@testable import EdgeServer

/// How the connection cap is fitted to `RLIMIT_NOFILE` (the end-to-end check under
/// `ulimit -n 128` is in `ServeCommandTests`).
@Suite struct OpenFileLimitTests {
    /// A quarter of the limit (at most 256) is kept for the server's own descriptors.
    @Test(arguments: [
        (1_024, 4_096, 768), (300, 4_096, 225), (128, 4_096, 96), (64, 4_096, 48), (2, 4_096, 2), (1, 4_096, 1),
        (20_000, 4_096, 4_096), (4_352, 4_096, 4_096), (4_351, 4_096, 4_095), (1_048_576, 10, 10),
    ])
    func theCapIsWhatTheSoftLimitHolds(soft: Int, wanted: Int, cap: Int) {
        #expect(OpenFileLimit(soft: soft, hard: soft).connectionCap(wanting: wanted) == cap)
    }

    /// The soft limit is raised to hold every connection with a file being sent, never above
    /// the hard limit and never lowered.
    @Test(arguments: [
        (1_024, 1_048_576, 8_448), (1_024, 4_096, 4_096), (20_000, 20_000, 20_000), (1_024, Int.max, 8_448), (10_000, 20_000, 10_000),
    ])
    func theSoftLimitIsRaisedTowardTheHardLimit(soft: Int, hard: Int, raised: Int) {
        #expect(OpenFileLimit(soft: soft, hard: hard).raisedSoftLimit(toHold: 4_096) == raised)
    }

    /// Raising this process's limit leaves in effect what it returns.
    @Test func raisingTheCurrentLimitReportsTheLimitInEffect() throws {
        let limit = try #require(OpenFileLimit.raiseCurrent(toHold: 64))
        var values = rlimit()
        #if canImport(Glibc)
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &values) == 0)
        #else
        #expect(getrlimit(RLIMIT_NOFILE, &values) == 0)
        #endif
        #expect(values.rlim_cur == rlim_t(limit.soft))
        #expect(limit.soft >= min(limit.hard, 2 * 64 + 256))
    }
}
