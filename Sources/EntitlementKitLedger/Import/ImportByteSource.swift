import Foundation

/// An import input read in chunks, so memory stays flat whatever the file's size.
public struct ImportByteSource {
    private let nextChunk: () throws(ImportReadError) -> [UInt8]?

    /// Reads `handle` from its current offset to its end, `chunkSize` bytes at a time.
    public init(handle: FileHandle, chunkSize: Int = 1 << 20) {
        nextChunk = { () throws(ImportReadError) -> [UInt8]? in
            do {
                guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
                return [UInt8](data)
            } catch {
                throw ImportReadError(reason: error.localizedDescription)
            }
        }
    }

    /// Reads `data`, `chunkSize` bytes at a time (tests and generated inputs).
    public init(data: Data, chunkSize: Int = 1 << 20) {
        var offset = data.startIndex
        nextChunk = { () throws(ImportReadError) -> [UInt8]? in
            guard offset < data.endIndex else { return nil }
            let end = data.index(offset, offsetBy: chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            defer { offset = end }
            return [UInt8](data[offset..<end])
        }
    }

    /// The next chunk, or `nil` at the end.
    mutating func next() throws(ImportReadError) -> [UInt8]? {
        try nextChunk()
    }
}

/// An import input could not be read (an I/O error, not bad data).
public struct ImportReadError: Error, Sendable, CustomStringConvertible {
    /// The system's reason.
    public var reason: String

    public var description: String { "cannot read: \(reason)" }
}
