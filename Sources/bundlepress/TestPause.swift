import ArgumentParser
import Foundation
import Publishing

/// A hook for the end-to-end kill tests only (`Tests/EndToEndTests/KillTests.swift`): with
/// `BUNDLEPRESS_TEST_PAUSE_AT=<checkpoint>` in its environment, `bundlepress build` prints
/// `bundlepress-test-pause: <checkpoint> pid <pid>` on standard error when it reaches that
/// ``BuildCheckpoint`` and then sleeps for a minute, so that a test can `kill -9` it exactly
/// there. No option enables it; an unknown checkpoint name is a usage error.
struct TestPause {
    static let variable = "BUNDLEPRESS_TEST_PAUSE_AT"

    /// Where to pause, if anywhere.
    let checkpoint: BuildCheckpoint?

    /// Reads the environment.
    init() throws {
        guard let name = ProcessInfo.processInfo.environment[Self.variable] else {
            checkpoint = nil
            return
        }
        guard let checkpoint = BuildCheckpoint(rawValue: name) else {
            let names = BuildCheckpoint.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(Self.variable)=\(name) (a test-only hook) is not one of: \(names)")
        }
        self.checkpoint = checkpoint
    }

    /// Pauses when `reached` is the requested checkpoint.
    func pause(at reached: BuildCheckpoint) {
        guard reached == checkpoint else { return }
        FileHandle.standardError.write(Data("bundlepress-test-pause: \(reached.rawValue) pid \(getpid())\n".utf8))
        sleep(60)
    }
}
