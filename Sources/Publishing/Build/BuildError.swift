import BundleFormat
import ExportReader
import JSONCore
import PipelineLanguage

/// Why a build failed. Nothing was published when this is thrown: the previous site is intact.
public enum BuildError: Error, Sendable, CustomStringConvertible {
    /// `pipeline.yml` is invalid, or a named query does not fit the inputs.
    case config(ConfigError)
    /// An input pattern matched no file.
    case noInputFiles(pattern: String, location: SourceLocation?)
    /// An export file is unreadable or malformed.
    case input(ExportError)
    /// The inputs are readable but their data cannot be published (duplicates, times, references).
    case data(String, location: SourceLocation?)
    /// A bundle could not be encoded (a rule of the bundle format would be broken).
    case bundle(id: String, BundleWriterError)
    /// Writing the site failed.
    case publish(PublishError)
    /// The previous state that `previous:` or `--previous` names cannot be read.
    case previous(PreviousSiteFailure)
    /// Another build holds the output's lock (file `path`); this one changed nothing.
    case locked(path: String, holder: BuildLock.Holder?)
    /// Bundles are larger than their `max_bundle_bytes` (with `budgets.mode: fail`).
    case budgetExceeded([BudgetViolation])
    /// Bundles publish fields that look like personal data or secrets (with `exposure.mode: fail`).
    case exposure([ExposureFinding])
    /// `bundlepress query NAME` names no named query of the config (`known`, in config order).
    case unknownQuery(name: String, known: [String], file: String)
    /// The config does not fit the data (with `warnings: error`).
    case dataCheck([DataWarning])
    /// The partials of a sharded build cannot be merged: one is missing, damaged, or from
    /// another pipeline or binary.
    case partials(String)

    public var description: String {
        switch self {
        case .config(let error): return error.description
        case .noInputFiles(let pattern, let location):
            return (location.map { "\($0): " } ?? "") + "inputs: \"\(pattern)\" matches no files"
        case .input(let error): return error.description
        case .data(let message, let location): return (location.map { "\($0): " } ?? "") + message
        case .bundle(let id, let error): return "bundle \"\(id)\": \(error)"
        case .publish(let error): return "cannot publish: \(error)"
        case .previous(let error):
            return "cannot read the previous state: \(error); nothing was published (fix previous:, or set it to none if nothing was published before)"
        case .locked(let path, let holder):
            let who = holder.map { " (\($0))" } ?? ""
            return "another bundlepress build\(who) holds \(path) and is publishing to the same output; "
                + "this build stopped without changing anything: run it again when that one has finished, or give it another --output"
        case .budgetExceeded(let violations):
            return violations.map(\.description).joined(separator: "\n") + "\nnothing was published (set budgets.mode: warn to publish anyway)"
        case .exposure(let findings):
            return findings.map(\.description).joined(separator: "\n") + "\nnothing was published (exposure.mode: fail)"
        case .unknownQuery(let name, let known, let file):
            let suggestions = NameSuggestions.closest(to: name, among: known)
            let hint = suggestions.isEmpty ? "" : "; " + NameSuggestions.didYouMean(suggestions)
            let listed = known.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.joined(separator: ", ")
            return "\(file) has no named query \"\(name)\"\(hint) (named queries: \(listed))"
        case .dataCheck(let warnings):
            return warnings.map(\.description).joined(separator: "\n") + "\nnothing was published (warnings: error)"
        case .partials(let message): return "cannot merge the partials: \(message)"
        }
    }
}
