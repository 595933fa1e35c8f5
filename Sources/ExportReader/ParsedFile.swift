import JSONCore

/// A whole file parsed as one JSON value, with the map to report positions in it.
struct ParsedFile {
    var root: JSONNode
    var sourceMap: SourceMap

    /// Reads the rest of `file` into memory and parses it as exactly one JSON value.
    static func read(_ file: InputFile) throws(ExportError) -> ParsedFile {
        let bytes = try file.readAll()
        let sourceMap = SourceMap(file: file.path, bytes: bytes)
        guard bytes.contains(where: { !JSONWhitespace.contains($0) }) else {
            throw .empty(file: file.path)
        }
        do {
            return ParsedFile(root: try JSONParser.parse(bytes), sourceMap: sourceMap)
        } catch {
            throw .syntax(sourceMap.location(ofOffset: error.offset), message: error.message)
        }
    }
}

/// The four JSON whitespace bytes.
enum JSONWhitespace {
    static func contains(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
