import FirestoreModel
import PipelineLanguage
import QueryEngine

/// What `bundlepress init --from-extension` finds of the `firestore-bundle-builder`
/// extension in the exports: the bundle specs of its spec collection, each read as a build
/// reads it, and for each parameter the values the data holds for it.
public struct SpecSurvey: Sendable {
    /// One spec document.
    public struct Spec: Sendable, Equatable {
        /// The spec id (the extension's `/bundles/<id>`).
        public var id: String
        /// Its parameters in name order, with the values found for each.
        public var parameters: [ExtensionSpec.ParameterInData]
    }

    /// Why no spec could be surveyed.
    public enum Problem: Error, Sendable, CustomStringConvertible {
        /// The collection holds no document in the exports; the top-level collections that do.
        case noSpecs(collection: ResourcePath, topLevelCollections: [String])
        /// A spec document that a build would refuse, and why.
        case invalidSpec(ConfigError)

        public var description: String {
            switch self {
            case .noSpecs(let collection, let found):
                return "the exports hold no bundle spec in collection \(collection) (top-level collections: \(found.isEmpty ? "none" : found.joined(separator: ", "))); export the extension's spec collection with the data, or name it with --extension-collection (its BUNDLESPEC_COLLECTION)"
            case .invalidSpec(let error):
                return error.description
            }
        }
    }

    /// The spec collection.
    public var collection: ResourcePath
    /// The specs, in document id order.
    public var specs: [Spec]

    /// The specs of `collection` among the documents `survey` kept (an ``ExportSurvey`` made
    /// with `keepingDocuments`).
    public init(collection: ResourcePath, in survey: ExportSurvey) throws(Problem) {
        self.collection = collection
        guard let store = survey.documents, store.hasCollection(collection) else {
            throw .noSpecs(collection: collection, topLevelCollections: survey.topLevelCollections)
        }
        specs = []
        for document in store.documents(inCollection: collection) {
            do throws(ConfigError) {
                let spec = try ExtensionSpec(document)
                specs.append(Spec(id: spec.id, parameters: spec.parametersInData(store)))
            } catch {
                throw .invalidSpec(error)
            }
        }
    }
}
