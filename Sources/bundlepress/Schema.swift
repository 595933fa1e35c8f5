import ArgumentParser
import Foundation
import PipelineLanguage

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of pipeline.yml, for editors that complete and check it.",
        discussion: """
            A JSON Schema (draft 2020-12) made from the keys the config parser reads. Save it \
            and point your editor at it: with the YAML extension of VS Code or in JetBrains IDEs, \
            a first line "# yaml-language-server: $schema=./pipeline.schema.json" (which init \
            writes) or a mapping in the editor's settings. The schema checks the shape of the \
            file; bundlepress build checks the rest.

            Reference: docs/pipeline.md, "Editor support" (VS Code, JetBrains, custom tags).

            Examples:
              bundlepress schema > pipeline.schema.json
              bundlepress schema | jq '.properties | keys'
            """
    )

    func run() throws {
        FileHandle.standardOutput.write(try Self.prettyJSON())
    }

    /// The schema, pretty-printed with sorted keys (the same bytes every time), and a newline.
    static func prettyJSON() throws -> Data {
        let object = try JSONSerialization.jsonObject(with: Data(PipelineSchema.json.utf8))
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) + Data("\n".utf8)
    }
}
