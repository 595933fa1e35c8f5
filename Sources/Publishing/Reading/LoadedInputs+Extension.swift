import FirestoreModel
import PipelineLanguage
import QueryEngine

extension LoadedInputs {
    /// `config` with the bundles of the extension's spec documents (`extension:`), read whole
    /// from the inputs. The store takes in the fields whose values make parameter values, then
    /// those the specs' queries read: every document is a candidate under `extension:`
    /// (``CandidateRules``), so every one is set aside whole.
    mutating func expandingExtension(_ config: PipelineConfig) throws(BuildError) -> PipelineConfig {
        guard let extensionConfig = config.extensionConfig else { return config }
        let collection = extensionConfig.collection
        var specs: [Document] = []
        for document in store.documents(inCollection: collection) {
            do throws(PublishError) { specs.append(try setAside.whole(document)) } catch { throw .publish(error) }
        }
        guard !specs.isEmpty else {
            throw .config(ConfigError(
                "extension: collection \(collection) has no spec documents in the inputs; export it with the data (or set extension.collection to the extension's BUNDLESPEC_COLLECTION)",
                at: extensionConfig.location))
        }
        let valueFields: [FieldPath]
        do throws(ConfigError) { valueFields = try config.extensionFieldsRead(specDocuments: specs) } catch { throw .config(error) }
        try keepAlso(valueFields)
        let expanded: PipelineConfig
        do throws(ConfigError) { expanded = try config.expandingExtension(specDocuments: specs, store: store) } catch { throw .config(error) }
        try keepAlso(expanded.fieldsRead)
        return expanded
    }
}
