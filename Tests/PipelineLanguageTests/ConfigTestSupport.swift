import FirestoreModel
import Testing
@testable import PipelineLanguage

/// Parses config text as `pipeline.yml`, returning the error or nil (recording an issue when
/// the config is accepted).
func configError(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ConfigError? {
    do {
        _ = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/nonexistent")
        Issue.record("the config was accepted; expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Parses config text that must be valid.
func parseConfig(_ yaml: String) throws -> PipelineConfig {
    try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/nonexistent")
}

func path(_ text: String) -> ResourcePath {
    try! ResourcePath(parsing: text)
}

func timestamp(_ text: String) -> Timestamp {
    try! Timestamp(rfc3339: text)
}

let demo = DatabaseID(project: "demo")
