import FirestoreModel
import ParallelWork
import PipelineLanguage

/// Looks at the field names, and cheaply at the string values, of every document a build
/// publishes, for what looks like personal data or a secret (``SensitiveValue``). A field the
/// bundle's `fields:` rule lists explicitly is meant to be public and is not reported.
enum ExposureScan {
    /// A field of one document that looks sensitive: by its name (not looked into further), or
    /// by a string value in it.
    struct Candidate: Sendable, Hashable {
        var path: [String]
        var looksLike: SensitiveValue
    }

    /// The candidates of a document with these fields, in field order.
    static func candidates(in fields: MapValue, names: inout NameJudgements) -> [Candidate] {
        var found: [Candidate] = []
        scan(fields, at: [], names: &names) { found.append(Candidate(path: $0, looksLike: $1)) }
        return found
    }

    /// The findings of `plan`, per bundle, collection and field (the first document in key order
    /// as the example), in bundle order. A document its bundle publishes whole is judged by the
    /// candidates found when it was read; one a `fields:` rule narrows is read back whole.
    static func findings(in plan: ShipmentPlan, policies: [String: FieldPolicy], inputs: LoadedInputs) throws(BuildError) -> [ExposureFinding] {
        var all: [ExposureFinding] = []
        for bundle in plan.bundles {
            let documents = bundle.entries.compactMap { entry -> Document? in
                guard case .existing(let document, _) = entry else { return nil }
                return document
            }
            let policy = policies[bundle.id] ?? FieldPolicy()
            do throws(PublishError) {
                all += try findings(bundle: bundle.id, documents: documents, policy: policy) { (document, names) throws(PublishError) in
                    try inputs.exposureCandidates(of: document, as: policy, names: &names)
                }
            } catch {
                throw .publish(error)
            }
        }
        return all
    }

    /// The findings of the documents one bundle publishes under `policy`, per collection and
    /// field (the first of `documents` that holds it as the example).
    static func findings(bundle: String, documents: some Sequence<Document>, policy: FieldPolicy) -> [ExposureFinding] {
        findings(bundle: bundle, documents: Array(documents), policy: policy) { document, names in candidates(in: document.fields, names: &names) }
    }

    /// The findings of the documents one bundle publishes under `policy`, each with the
    /// candidates `candidates` finds in it as published.
    ///
    /// Runs of documents are scanned on every core; keeping each field's first finding in run
    /// order gives the same findings as one pass in document order.
    private static func findings<E: Error>(
        bundle: String, documents: [Document], policy: FieldPolicy,
        candidates: @Sendable (Document, inout NameJudgements) throws(E) -> [Candidate]
    ) throws(E) -> [ExposureFinding] {
        let run = 2_048
        let runs = parallelMap(count: (documents.count + run - 1) / run, threads: Processors.online) { index in
            Result { () throws(E) in
                var findings: [(key: [String], finding: ExposureFinding)] = []
                var seen: Set<[String]> = []
                // Documents repeat their field names: each name is judged once.
                var names = NameJudgements()
                for document in documents[(index * run)..<min(documents.count, (index + 1) * run)] {
                    let allowed = policy.rule(forDocument: document.path).flatMap { $0.mode == .allow ? $0.fields : nil } ?? []
                    for candidate in try candidates(document, &names) {
                        let field = FieldPath(segments: candidate.path)
                        let key = [document.collectionID] + candidate.path
                        guard !allowed.contains(where: { $0.isPrefix(of: field) }), seen.insert(key).inserted else { continue }
                        findings.append((key, ExposureFinding(
                            bundle: bundle, collection: document.collectionID, field: field.canonicalString, looksLike: candidate.looksLike.rawValue,
                            example: document.path.description)))
                    }
                }
                return findings
            }
        }
        var seen: Set<[String]> = []
        var all: [ExposureFinding] = []
        for run in runs {
            all += try run.get().filter { seen.insert($0.key).inserted }.map(\.finding)
        }
        return all
    }

    /// ``SensitiveValue/named(_:)`` of each field name, remembered.
    struct NameJudgements {
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
