import ArgumentParser
import BundleFormat
import ExportReader
import PipelineLanguage
import Publishing

/// The process exit statuses, from sysexits(3) so cron wrappers and CI can tell them apart.
enum ExitStatus {
    /// `verify` or `inspect` found problems in what was checked.
    static let problemsFound = ExitCode(1)
    /// A bundle is over its size budget (`budgets.mode: fail`); nothing was published. Not a
    /// sysexits(3) code: none means "policy", and a cron wrapper may well treat it apart.
    static let budgetExceeded = ExitCode(3)
    /// A bundle publishes a field that looks like personal data or a secret (`exposure.mode:
    /// fail`); nothing was published.
    static let exposureFound = ExitCode(4)
    /// The command line names something that is not there (`query NAME` with an unknown name):
    /// EX_USAGE, as for a wrong option.
    static let usage = ExitCode(64)
    /// The input data is invalid (a malformed export, duplicate documents, bad times).
    static let dataError = ExitCode(65)
    /// An input file or pattern matched nothing or could not be opened.
    static let noInput = ExitCode(66)
    /// The previous state that `--previous` or `previous:` names cannot be read (a server or
    /// network failure, an unreadable directory): EX_UNAVAILABLE, try again later.
    static let previousUnavailable = ExitCode(69)
    /// `serve` cannot listen on the address (port in use, no such local address).
    static let unavailable = ExitCode(69)
    /// `init` made a config that does not load: a bug (EX_SOFTWARE).
    static let software = ExitCode(70)
    /// `init` would replace an existing config without `--force` (EX_CANTCREAT).
    static let cannotCreate = ExitCode(73)
    /// Writing the site failed (disk full, permissions).
    static let ioError = ExitCode(74)
    /// Another build holds the output's lock (EX_TEMPFAIL: try again later).
    static let lockHeld = ExitCode(75)
    /// pipeline.yml is invalid, or (with `warnings: error`) does not fit the data.
    static let configError = ExitCode(78)

    /// 66 for an export that cannot be opened, 65 for one that is not valid.
    static func code(for error: ExportError) -> ExitCode {
        switch error {
        case .unreadable, .isDirectory: return noInput
        default: return dataError
        }
    }

    static func code(for error: BuildError) -> ExitCode {
        switch error {
        case .config, .dataCheck: return configError
        case .unknownQuery: return usage
        case .noInputFiles: return noInput
        case .input(let inputError): return code(for: inputError)
        case .data, .bundle, .partials: return dataError
        case .publish: return ioError
        case .previous: return previousUnavailable
        case .locked: return lockHeld
        case .budgetExceeded: return budgetExceeded
        case .exposure: return exposureFound
        }
    }
}

extension PipelineConfig {
    /// Loads the config for a command, reporting a problem on standard error and exiting 78.
    static func loadForCommand(_ file: String, terminal: inout Terminal) throws -> PipelineConfig {
        do {
            return try PipelineConfig.load(file: file)
        } catch {
            terminal.error(error.description)
            throw ExitStatus.configError
        }
    }
}
