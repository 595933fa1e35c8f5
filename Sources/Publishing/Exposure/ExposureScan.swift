import FirestoreModel
import ParallelWork
import PipelineLanguage

/// Looks at the field names, and cheaply at the string values, of every document a build
/// publishes, for what looks like personal data or a secret (``SensitiveValue``). A field the
/// bundle's `fields:` rule lists explicitly is meant to be public and is not reported.
enum ExposureScan {
    /// The findings of `plan`, per bundle, collection and field (the first document in key order
    /// as the example), in bundle order.
    static func findings(in plan: ShipmentPlan, policies: [String: FieldPolicy]) -> [ExposureFinding] {
        plan.bundles.flatMap { bundle in
            let documents = bundle.entries.lazy.compactMap { entry -> Document? in
                guard case .existing(let document, _) = entry else { return nil }
                return document
            }
            return findings(bundle: bundle.id, documents: documents, policy: policies[bundle.id] ?? FieldPolicy())
        }
    }

    /// The findings of the documents one bundle publishes under `policy`, per collection and
    /// field (the first of `documents` that holds it as the example).
    ///
    /// Runs of documents are scanned on every core; keeping each field's first finding in run
    /// order gives the same findings as one pass in document order.
    static func findings(bundle: String, documents: some Sequence<Document>, policy: FieldPolicy) -> [ExposureFinding] {
        let documents = Array(documents)
        let run = 2_048
        let runs = parallelMap(count: (documents.count + run - 1) / run, threads: Processors.online) { index in
            findings(bundle: bundle, documents: documents[(index * run)..<min(documents.count, (index + 1) * run)], policy: policy)
        }
        var seen: Set<[String]> = []
        return runs.joined().filter { seen.insert($0.key).inserted }.map(\.finding)
    }

    /// The findings of one run of documents in order, each with what makes it a repeat: its
    /// collection and field path.
    private static func findings(bundle: String, documents: ArraySlice<Document>, policy: FieldPolicy) -> [(key: [String], finding: ExposureFinding)] {
        var findings: [(key: [String], finding: ExposureFinding)] = []
        var seen: Set<[String]> = []
        // Documents repeat their field names: each name is judged once.
        var names = NameJudgements()
        for document in documents {
            let allowed = policy.rule(forCollection: document.path.parent).flatMap { $0.mode == .allow ? $0.fields : nil } ?? []
            scan(document.fields, at: [], names: &names) { path, looksLike in
                let field = FieldPath(segments: path)
                let key = [document.collectionID] + path
                guard !allowed.contains(where: { $0.isPrefix(of: field) }), seen.insert(key).inserted else { return }
                findings.append((key, ExposureFinding(
                    bundle: bundle, collection: document.collectionID, field: field.canonicalString, looksLike: looksLike.rawValue,
                    example: document.path.description)))
            }
        }
        return findings
    }

    /// ``SensitiveValue/named(_:)`` of each field name, remembered.
    private struct NameJudgements {
        private var judged: [String: SensitiveValue?] = [:]

        mutating func named(_ name: String) -> SensitiveValue? {
            if let known = judged[name] { return known }
            let judgement = SensitiveValue.named(name)
            judged[name] = judgement
            return judgement
        }
    }

    private static func scan(_ map: MapValue, at path: [String], names: inout NameJudgements, _ report: ([String], SensitiveValue) -> Void) {
        for field in map.fields {
            let here = path + [field.key]
            if let named = names.named(field.key) {
                report(here, named)
            } else {
                scan(field.value, at: here, names: &names, report)
            }
        }
    }

    private static func scan(_ value: Value, at path: [String], names: inout NameJudgements, _ report: ([String], SensitiveValue) -> Void) {
        switch value {
        case .string(let text): if let looks = SensitiveValue.looking(like: text) { report(path, looks) }
        case .map(let map): scan(map, at: path, names: &names, report)
        case .array(let values):
            for element in values { scan(element, at: path, names: &names, report) }
        default: break
        }
    }
}
