import FirestoreModel
import Foundation
import JSONCore
@testable import QueryEngine

/// Test fixtures and small builders shared by the QueryEngine tests.
enum Fixtures {
    static let database = DatabaseID(project: "demo")

    /// Parses a fixture file under `Fixtures/`.
    static func json(_ name: String, subdirectory: String = "Fixtures") -> JSONNode {
        let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: subdirectory)!
        return try! JSONParser.parse(Array(try! Data(contentsOf: url)))
    }

    /// Parses JSON text.
    static func parse(_ text: String) -> JSONNode {
        try! JSONParser.parse(Array(text.utf8))
    }

    /// A store of documents given as `path → proto3 JSON fields` text.
    static func store(_ docs: [(String, String)]) -> DocumentStore {
        var store = DocumentStore(database: database)
        for (path, fields) in docs {
            store.insert(document(path, fields))
        }
        return store
    }

    static func document(_ path: String, _ fields: String) -> Document {
        Document(path: try! ResourcePath(parsing: path), fields: try! MapValue(protoJSONFields: parse(fields), relativeTo: database))
    }

    static func reference(_ path: String) -> Value {
        .reference(ResourceName(database: database, path: try! ResourcePath(parsing: path)))
    }

    static func field(_ text: String) -> FieldPath {
        try! FieldPath(serverFormat: text)
    }
}

extension DocumentStore {
    /// The relative paths `query` returns.
    func paths(_ query: Query) -> [String] {
        evaluate(query).map(\.path.description)
    }
}
