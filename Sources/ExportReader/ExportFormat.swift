/// A Firestore export format, named as `format:` in `pipeline.yml`.
///
/// Every family the detector recognises has a case, so a file in a format that cannot be read
/// yet gets an error naming it instead of a confusing syntax error. ``isSupported`` says which
/// ones ``ExportReader`` reads today.
public enum ExportFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One JSON value: a REST `Document`, an array of them, a `documents.list` page, a `runQuery`
    /// response array or a `batchGet` response array.
    case rest
    /// One REST record per line: a `Document`, a `runQuery` or `batchGet` element, or a list page.
    case restNDJSON = "rest-ndjson"
    /// jloosli/node-firestore-import-export: nested `__collections__`, `__datatype__` tags.
    case nodeFirestoreImportExport = "node-firestore-import-export"
    /// dalenguyen/firestore-export-import: `subCollection`, untagged `_seconds` objects.
    case firestoreExportImport = "firestore-export-import"
    /// benyap/firestore-backfire NDJSON: `{"path", "data", "timestamps"?, …}` per line.
    case firestoreBackfire = "firestore-backfire"
    /// Firestore → BigQuery extension `*_raw_changelog` rows as NDJSON.
    case bigQueryChangelog = "bigquery-changelog"
    /// Firefoo JSON (`__time__`, `__ref__`, …); its layout is unverified.
    case firefoo
    /// A managed export (`gcloud firestore export`, scheduled backups) or an Emulator Suite
    /// export: a folder of LevelDB log files of datastore v3 entities, not JSON.
    case managedExport = "managed-export"

    /// Whether ``ExportReader`` can read this format yet.
    public var isSupported: Bool {
        switch self {
        case .firefoo: return false
        default: return true
        }
    }

    /// Whether the format's values carry their Firestore types, so type hints do not apply.
    public var carriesTypes: Bool {
        self == .rest || self == .restNDJSON || self == .managedExport
    }

    /// Whether the format has one record per line (NDJSON) rather than one JSON value per file.
    var isLineDelimited: Bool {
        self == .restNDJSON || self == .firestoreBackfire || self == .bigQueryChangelog
    }

    /// Whether a file of this format can be read in byte ranges (``ExportReader/open(_:format:hints:byteRange:lineNumbering:)``):
    /// its lines are independent records. A BigQuery changelog is not: a document's newest row
    /// can be anywhere in the file.
    public var readsInRanges: Bool {
        self == .restNDJSON || self == .firestoreBackfire
    }

    /// The name users know the format by, for messages.
    public var displayName: String {
        switch self {
        case .rest: return "Firestore REST JSON"
        case .restNDJSON: return "Firestore REST NDJSON"
        case .nodeFirestoreImportExport: return "a node-firestore-import-export (jloosli) export"
        case .firestoreExportImport: return "a firestore-export-import (dalenguyen) backup"
        case .firestoreBackfire: return "a firestore-backfire NDJSON export"
        case .bigQueryChangelog: return "a Firestore→BigQuery extension raw changelog (NDJSON)"
        case .firefoo: return "a Firefoo export"
        case .managedExport: return "a managed export (gcloud firestore export) or Emulator Suite export"
        }
    }

    /// What a user can do today with a file in an unsupported format.
    var workaround: String {
        switch self {
        case .firefoo:
            return "Its JSON shape is unverified, so it will be supported only once a real Firefoo export is available. "
                + "Meanwhile, convert it to Firestore REST NDJSON (one REST Document per line, e.g. `runQuery` over the REST API "
                + "piped through `jq -c '.[] | .document // empty'`), or set `format:` if the detection is wrong."
        default:
            return ""
        }
    }

    /// The `format:` name.
    public var description: String { rawValue }
}
