import Foundation
@testable import Gzip
import Testing

/// The engines the gzip tests run over: zlib always, libdeflate where this process finds it.
enum DeflateEngines {
    /// True where the run must have libdeflate (`.ci/run` sets BUNDLEPRESS_REQUIRE_LIBDEFLATE=1):
    /// there a missing libdeflate fails the tests that need it, instead of skipping them.
    static let required = ProcessInfo.processInfo.environment["BUNDLEPRESS_REQUIRE_LIBDEFLATE"] == "1"

    static var available: [DeflateEngine] { [.zlib] + (DeflateEngine.libdeflate.map { [$0] } ?? []) }
}

extension Trait where Self == ConditionTrait {
    /// Runs where libdeflate is found, and wherever the run must have it (then failing without it).
    static var needsLibdeflate: Self {
        .enabled(if: DeflateEngine.libdeflate != nil || DeflateEngines.required, "libdeflate.so.0 is not on this machine (Debian: libdeflate0)")
    }
}
