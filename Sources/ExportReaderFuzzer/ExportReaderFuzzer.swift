import ExportReader
import FirestoreModel
import Foundation

/// libFuzzer target for the managed-export reader: each input is written as the `output-0` log
/// file of a managed export and read through ``ExportReader`` (LevelDB log framing, CRC
/// checks, EntityProto decoding, re-rooting). Any error must be an ``ExportError``; a crash,
/// hang, leak or sanitizer report is a bug.
///
/// Fuzzing build (README, "Development"): `swift build --product ExportReaderFuzzer
/// -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING`. Without `FUZZING` the product is a
/// replayer that runs the files named on its command line through the same function.
enum ExportReaderFuzzer {
    /// A managed export folder whose `output-0` each input replaces.
    static let folder: String = {
        atexit { try? FileManager.default.removeItem(atPath: ExportReaderFuzzer.folderPath(pid: getpid())) }
        let root = folderPath(pid: getpid())
        try! FileManager.default.createDirectory(atPath: root + "/all_namespaces/all_kinds", withIntermediateDirectories: true)
        return root
    }()

    private static func folderPath(pid: Int32) -> String {
        NSTemporaryDirectory() + "bundlepress-fuzz-\(pid)"
    }

    static let reader = ExportReader(target: DatabaseID(project: "fuzz"))

    /// Reads `bytes` as an export's only data file; returns how many documents it held.
    @discardableResult
    static func run(_ bytes: UnsafeRawBufferPointer) -> Int {
        let output = folder + "/all_namespaces/all_kinds/output-0"
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else { fatalError("cannot write \(output)") }
        var count = 0
        do {
            var source = try reader.open(folder, format: .managedExport)
            while try source.next() != nil { count += 1 }
        } catch {
            _ = error.description
        }
        return count
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ExportReaderFuzzer.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// The entry point: libFuzzer's driver in a fuzzing build (SwiftPM gives every executable its
/// own `main`, so libFuzzer's is not used), the replayer otherwise.
@main
enum Entry {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data!, size) })
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read the file")
                continue
            }
            let count = data.withUnsafeBytes { ExportReaderFuzzer.run($0) }
            print("\(path): \(count) documents")
        }
        #endif
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
