import BundleFormat
import FirestoreModel

extension BundleWriter {
    /// Encodes the body of the bundle whose metadata `counted` is (``metadataElement(totalBytes:)``
    /// of ``bodyByteCount(documentsPerRun:encodedFieldsCount:)``, already given out) into
    /// `consume`, each document with the fields `encodedFields` gives, and checks that the body
    /// encoded is the body counted; `path` names the file being written in that error.
    ///
    /// Runs of 512 documents: a round of encoded runs is in memory beside what `consume` does
    /// with them (gzip blocks compressing), and 2,048 put 5 MiB on the build's peak at 100k
    /// documents.
    func encodeBody(
        matching counted: BundleMetadata, encodedFields: @escaping @Sendable (_ index: Int, Document) throws(PublishError) -> [UInt8],
        writingTo path: String, _ consume: ([UInt8]) throws(PublishError) -> Void
    ) throws(PublishError) {
        let encoded = try encodeBody(documentsPerRun: 512, encodedFields: encodedFields, consume)
        guard encoded.metadata == counted else {
            throw PublishError(
                path: path,
                message: "the bundle's body took \(encoded.metadata.totalBytes) bytes, not the \(counted.totalBytes) counted before writing it (a bug in bundlepress: please report it)")
        }
    }
}
