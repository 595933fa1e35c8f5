import FirestoreModel

/// The `<name>.export_metadata` file beside a kind folder's `output-N` files
/// (`all_namespaces/all_kinds/`, `all_namespaces/kind_<collection>/`).
///
/// Undocumented; as found in managed and emulator exports it is a protocol buffer message
/// whose field 1 holds the export's name (2), start (2) and end (3) times in microseconds since
/// the epoch, and whose field 2 lists the kind and its `output-N` file names (2). Only those
/// fields are read; others are skipped, so a new field does not break reading the data.
struct KindExportMetadata {
    /// When the export started, if the file says so plausibly.
    var startTime: Timestamp?
    /// The data files the export wrote, in the order listed.
    var outputFiles: [String]

    /// Times before 2000 are not an export's (emulators of 2020 wrote other values there).
    private static let earliestPlausibleMicros: UInt64 = 946_684_800_000_000

    init(bytes: [UInt8]) throws(ProtoError) {
        var reader = ProtoReader(bytes: bytes)
        var startTime: Timestamp?
        var outputFiles: [String] = []
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.wireType) {
            case (1, .lengthDelimited):
                var export = try reader.readMessage()
                try export.forEachField(2, .varint) { export, _ throws(ProtoError) in
                    let micros = try export.readVarint()
                    if micros >= Self.earliestPlausibleMicros, micros / 1_000_000 <= UInt64(Timestamp.maxSeconds) {
                        startTime = try? Timestamp(seconds: Int64(micros / 1_000_000), nanos: Int32(micros % 1_000_000) * 1000)
                    }
                }
            case (2, .lengthDelimited):
                var files = try reader.readMessage()
                try files.forEachField(2, .lengthDelimited) { files, tag throws(ProtoError) in
                    outputFiles.append(try EntityKey.text(&files, tag, "an output file name"))
                }
            default:
                try reader.skip(tag)
            }
        }
        self.startTime = startTime
        self.outputFiles = outputFiles
    }
}
