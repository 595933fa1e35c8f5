import ArgumentParser
import Foundation

/// `--config`/`-c`, the pipeline config a command reads; shared through `@OptionGroup` by the
/// commands that read one (`init`'s `--config` names the file it writes and stays its own).
struct ConfigOption: ParsableArguments {
    /// The file read when `--config` is not given.
    static let defaultFile = "pipeline.yml"

    @Option(name: .shortAndLong, help: "The pipeline config file (default: pipeline.yml).")
    var config: String?

    /// The config to read: the one given, else `pipeline.yml` (for commands that need one).
    var file: String { config ?? Self.defaultFile }

    /// The config to read where one is optional: the one given, else `pipeline.yml` when it
    /// exists, else none.
    var existingFile: String? {
        config ?? (FileManager.default.fileExists(atPath: Self.defaultFile) ? Self.defaultFile : nil)
    }

    /// Whether `--config` was given.
    var isGiven: Bool { config != nil }
}
