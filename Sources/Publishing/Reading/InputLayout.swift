import ExportReader
import PipelineLanguage
import SystemSupport

/// The inputs of a pipeline in the order a build reads them (config order, each pattern's
/// matches in path order), laid end to end as one sequence of bytes, and that sequence cut into
/// the slices of a sharded build.
///
/// Slice K of N is the bytes from ⌊K·total/N⌋ to ⌊(K+1)·total/N⌋. A file whose records are
/// independent lines (``ExportFormat/readsInRanges``) is cut where a slice ends, and each slice
/// reads the records whose lines start in it; any other input (a single JSON value, a changelog,
/// an export folder) belongs whole to the slice its first byte is in. Every record is read by
/// exactly one slice, and slices in shard order read the records in the order one process does.
struct InputLayout: Sendable {
    /// One input a pattern matched: a file, or an export folder.
    struct Input: Sendable {
        var path: String
        var spec: InputSpec
        /// Its size in bytes: an export folder's data files, followed through symlinks.
        var size: Int
        /// The data files it stands for (an export folder's `output-N` files; else the file).
        var dataFiles: Int
        /// Whether it is a managed or emulator export folder (or one of its metadata files).
        var isExportFolder: Bool
        /// The newest modification time of its files, in nanoseconds since the epoch: with the
        /// size, what tells a partial of today's inputs from one of yesterday's.
        var modified: Int
    }

    /// What one slice reads of one input.
    struct Piece: Sendable {
        /// The index in ``inputs``.
        var input: Int
        /// The byte range whose records it reads; nil for the whole input.
        var byteRange: Range<Int>?
        /// The format to read it with: the config's, or for an input cut into ranges the one
        /// found in its first lines.
        var format: ExportFormat?
    }

    var inputs: [Input]

    var totalBytes: Int { inputs.reduce(0) { $0 + $1.size } }
    var dataFileCount: Int { inputs.reduce(0) { $0 + $1.dataFiles } }

    /// Expands the input patterns of `config`.
    static func expand(_ config: PipelineConfig) throws(BuildError) -> InputLayout {
        let reader = ExportReader(target: config.database)
        var inputs: [Input] = []
        for spec in config.inputs {
            let matches: [String]
            do {
                matches = try FileGlob(pattern: spec.pattern).expand(relativeTo: config.baseDirectory)
            } catch {
                throw .noInputFiles(pattern: spec.pattern, location: spec.location)
            }
            guard !matches.isEmpty else { throw .noInputFiles(pattern: spec.pattern, location: spec.location) }
            for path in matches {
                // An export folder counts as the data files it holds (reading it says what is
                // wrong with it); sizes follow symlinks: the export's, not a link's.
                let parts = (try? reader.files(of: path)) ?? [path]
                let stamps = parts.compactMap { FileStamp(path: $0) }
                let size = stamps.reduce(0) { $0 + Int($1.size) }
                let modified = stamps.map { $0.modifiedSeconds * 1_000_000_000 + $0.modifiedNanoseconds }.max() ?? 0
                inputs.append(Input(path: path, spec: spec, size: size, dataFiles: parts.count, isExportFolder: parts != [path], modified: modified))
            }
        }
        return InputLayout(inputs: inputs)
    }

    /// What slice `shard` reads, in reading order.
    ///
    /// Whether an input across a slice's edge can be cut depends on its format: the config's,
    /// else `lineFormat` (asked only of the inputs this slice may read, and never parsing a
    /// file whole); an input without one is read whole, by the slice its first byte is in.
    func pieces(of shard: Shard, lineFormat: (String) -> ExportFormat?) -> [Piece] {
        let total = totalBytes
        func cut(_ slice: Int) -> Int { Int((Int64(total) * Int64(slice)) / Int64(shard.count)) }
        let (low, high) = (cut(shard.index), cut(shard.index + 1))
        /// The slice an offset is in: the last slice starting at or before it (the last slice
        /// for the end of the sequence, where empty trailing inputs start).
        func slice(containing offset: Int) -> Int {
            guard offset < total else { return shard.count - 1 }
            var slice = Int((Int64(offset) * Int64(shard.count)) / Int64(max(total, 1)))
            while slice + 1 < shard.count, cut(slice + 1) <= offset { slice += 1 }
            while slice > 0, cut(slice) > offset { slice -= 1 }
            return slice
        }
        var pieces: [Piece] = []
        var start = 0
        for (index, input) in inputs.enumerated() {
            defer { start += input.size }
            let end = start + input.size
            let first = slice(containing: start)
            let last = input.size == 0 ? first : slice(containing: end - 1)
            guard (first...last).contains(shard.index) else { continue }
            // Only an input across a slice's edge needs its format known here.
            let format = first == last ? nil : input.spec.format ?? lineFormat(input.path)
            guard let format, format.readsInRanges else {
                if first == shard.index { pieces.append(Piece(input: index, byteRange: nil, format: input.spec.format)) }
                continue
            }
            let (from, to) = (max(low, start), min(high, end))
            guard from < to else { continue }
            pieces.append(Piece(input: index, byteRange: (from - start)..<(to - start), format: format))
        }
        return pieces
    }
}
