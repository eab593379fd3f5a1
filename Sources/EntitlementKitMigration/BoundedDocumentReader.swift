import EntitlementKit
import Foundation

/// Reads one whole document — a file, a pipe, standard input — into memory, refusing one larger than a
/// limit without holding more of it than the limit.
///
/// A regular file over the limit is refused from its size, unread; any other input (a pipe, a device such
/// as `/dev/zero`, a file that grows) is read up to one byte past the limit and then refused, so an
/// endless input costs bounded memory and time. The refusal is a located ``DocumentError`` for the whole
/// document (path `$`), the same family as a JSON Lines record over ``JSONLinesReader/maximumLineLength``.
///
/// ```swift
/// let data = try BoundedDocumentReader().read(FileHandle.standardInput)
/// let snapshot = try SnapshotDecoder(adapters: [RevenueCatAdapter()]).snapshot(fromRecord: data, at: .now)
/// ```
public struct BoundedDocumentReader: Sendable {
    /// The default largest document read: 16 MiB, as large as one JSON Lines record
    /// (``JSONLinesReader/defaultMaximumLineLength``) and far above any real customer document.
    public static let defaultMaximumDocumentLength = 16 << 20

    /// The largest document, in bytes, that is read.
    public let maximumDocumentLength: Int

    /// Why a document was not read.
    public enum Failure: Error, Sendable, Hashable {
        /// The input is larger than the limit: a `syntax` error at the root that says so
        /// (`$: is 20000000 bytes long, over the limit of 16777216 bytes for one document; not read`).
        case tooLarge(DocumentError)
        /// The input could not be read; the text says why.
        case unreadable(String)
    }

    /// A reader that refuses documents longer than `maximumDocumentLength` bytes (at least 1).
    public init(maximumDocumentLength: Int = defaultMaximumDocumentLength) {
        self.maximumDocumentLength = max(1, maximumDocumentLength)
    }

    /// The whole content of `fileHandle`, from its current position to its end.
    public func read(_ fileHandle: FileHandle) throws(Failure) -> Data {
        var status = stat()
        if fstat(fileHandle.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size > maximumDocumentLength
        {
            throw .tooLarge(tooLarge(byteCount: Int(status.st_size)))
        }
        var data = Data()
        while true {
            // Never ask for more than one byte past the limit: that byte is all it takes to refuse.
            let wanted = min(1 << 18, maximumDocumentLength + 1 - data.count)
            let block: Data?
            do {
                block = try fileHandle.read(upToCount: wanted)
            } catch {
                throw .unreadable(error.localizedDescription)
            }
            guard let block, !block.isEmpty else { return data }
            data.append(block)
            if data.count > maximumDocumentLength { throw .tooLarge(tooLarge(byteCount: nil)) }
        }
    }

    /// The error for a document of `byteCount` bytes (`nil` when reading stopped before its end).
    private func tooLarge(byteCount: Int?) -> DocumentError {
        let reason =
            if let byteCount {
                "is \(byteCount) bytes long, over the limit of \(maximumDocumentLength) bytes for one document; not read"
            } else {
                "is longer than the limit of \(maximumDocumentLength) bytes for one document; read no further"
            }
        return DocumentError(kind: .syntax, path: .root, reason: reason)
    }
}
