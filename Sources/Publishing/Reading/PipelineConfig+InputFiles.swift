import ExportReader
import PipelineLanguage

extension PipelineConfig {
    /// What a build of this config reads, for watching it: each input pattern's matches in the
    /// order the build reads them, and for a managed or emulator export also the data files its
    /// folder holds. A pattern that matches nothing, or an export that cannot be read,
    /// contributes nothing here: the build says what is wrong with it.
    public func inputFiles() -> [String] {
        let reader = ExportReader(target: database)
        return inputs.flatMap { input in
            let matches = (try? FileGlob(pattern: input.pattern).expand(relativeTo: baseDirectory)) ?? []
            return matches.flatMap { match in
                let parts = (try? reader.files(of: match)) ?? [match]
                return parts == [match] ? [match] : [match] + parts
            }
        }
    }
}
