import FirestoreModel
import ParallelWork
import PipelineLanguage

/// Looks at the field names, and cheaply at the string values, of every document a build
/// publishes, for what looks like personal data or a secret (``SensitiveValue``). A field the
/// bundle's `fields:` rule lists explicitly is meant to be public and is not reported.
enum ExposureScan {
    /// The guard stage: the findings of `plan` (``findings(in:policies:setAside:)``). Throws
    /// ``BuildError/exposure(_:)`` when there are any and `policy` fails the build for them.
    static func guarding(_ plan: ShipmentPlan, policies: [String: FieldPolicy], setAside: SetAsideDocuments, policy: ExposurePolicy) throws(BuildError) -> [ExposureFinding] {
        let findings = try findings(in: plan, policies: policies, setAside: setAside)
        if policy.mode == .fail, !findings.isEmpty { throw .exposure(findings) }
        return findings
    }

    /// The findings of `plan`, per bundle, collection and field (the first document in key order
    /// as the example), in bundle order. A document its bundle publishes whole is judged by the
    /// candidates found when it was read; one a `fields:` rule narrows is read back whole.
    private static func findings(in plan: ShipmentPlan, policies: [String: FieldPolicy], setAside: SetAsideDocuments) throws(BuildError) -> [ExposureFinding] {
        var all: [ExposureFinding] = []
        for bundle in plan.bundles {
            var documents: [Document] = []
            var slots: [SetAsideDocuments.Slot] = []
            for entry in bundle.entries {
                guard case .existing(let document, _, let slot, _) = entry else { continue }
                documents.append(document)
                slots.append(slot)
            }
            let policy = policies[bundle.id] ?? FieldPolicy()
            do throws(PublishError) {
                all += try findings(bundle: bundle.id, documents: documents, policy: policy) { [documents, slots] (index, names) throws(PublishError) in
                    try setAside.exposureCandidates(of: documents[index], at: slots[index], as: policy, names: &names)
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
        let documents = Array(documents)
        return findings(bundle: bundle, documents: documents, policy: policy) { index, names in SensitiveFields.candidates(in: documents[index].fields, names: &names) }
    }

    /// The findings of the documents one bundle publishes under `policy`, each with the
    /// candidates `candidates` finds in it (given its index in `documents`) as published.
    ///
    /// Runs of documents are scanned on every core; keeping each field's first finding in run
    /// order gives the same findings as one pass in document order.
    private static func findings<E: Error>(
        bundle: String, documents: [Document], policy: FieldPolicy,
        candidates: @Sendable (Int, inout SensitiveFields.NameJudgements) throws(E) -> [SensitiveFields.Candidate]
    ) throws(E) -> [ExposureFinding] {
        let runs = parallelMap(runsOf: 2_048, count: documents.count, threads: Processors.online) { run in
            Result { () throws(E) in
                var findings: [(key: [String], finding: ExposureFinding)] = []
                var seen: Set<[String]> = []
                // Documents repeat their field names: each name is judged once.
                var names = SensitiveFields.NameJudgements()
                for position in run {
                    let document = documents[position]
                    let allowed = policy.rule(forDocument: document.path).flatMap { $0.mode == .allow ? $0.fields : nil } ?? []
                    for candidate in try candidates(position, &names) {
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
}
