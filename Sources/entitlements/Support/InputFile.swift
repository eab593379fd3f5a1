import EntitlementKit
import EntitlementKitMigration
import Foundation

/// A command-line input: a file path, or `-` for standard input.
struct InputFile {
    /// The argument as given.
    let argument: String

    /// The name used in messages: the path as given, `<stdin>` for `-`.
    var displayName: String { argument == "-" ? "<stdin>" : argument }

    var isStandardInput: Bool { argument == "-" }

    /// Opens the input for reading; a missing, unreadable or directory path is a `66` failure.
    func open() throws(CommandFailure) -> FileHandle {
        if isStandardInput { return FileHandle.standardInput }
        let descriptor = Foundation.open(argument, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(
                status: .noInput, message: "\(displayName): cannot open: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw CommandFailure(status: .noInput, message: "\(displayName): cannot open: is a directory")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Whether `path` names this very file (same device and inode), e.g. through another spelling.
    func isSameFile(as path: String) -> Bool {
        guard !isStandardInput else { return false }
        var input = stat()
        var other = stat()
        guard stat(argument, &input) == 0, stat(path, &other) == 0 else { return false }
        return input.st_dev == other.st_dev && input.st_ino == other.st_ino
    }

    /// A JSON Lines reader over the input whose read errors name it.
    ///
    /// A pretty-printed JSON document is refused here, once, with `notJSONLines` as the status — rather
    /// than reported as one broken record per line.
    func lineReader(notJSONLines: ExitStatus) throws(CommandFailure) -> JSONLinesReader {
        let handle = try open()
        let name = displayName
        let read = { () throws(ReadFailure) -> Data? in
            do {
                return try handle.read(upToCount: 1 << 18)
            } catch {
                throw ReadFailure(message: "\(name): cannot read: \(error.localizedDescription)")
            }
        }
        // Look at the start first (a pipe may deliver it in pieces): enough to hold the first non-blank
        // line and the break after it, or all there is.
        var start = Data()
        do {
            while start.count < 1 << 20, !Self.holdsFirstLine(start), let block = try read(), !block.isEmpty {
                start.append(block)
            }
        } catch {
            throw CommandFailure(status: .ioError, message: error.message)
        }
        // A first line that is not JSON may be one bad record; a start where no line is JSON (a CSV export,
        // an HTML error page) is not JSON Lines at all: said once, rather than one failure per line and then
        // a report of zero customers.
        do {
            while !DocumentShape.anyLineStartsLikeJSON(start), start.count < Self.notJSONLinesLookahead,
                let block = try read(), !block.isEmpty
            {
                start.append(block)
            }
        } catch {
            throw CommandFailure(status: .ioError, message: error.message)
        }
        if !DocumentShape.anyLineStartsLikeJSON(start), let shape = DocumentShape.description(ofNonJSON: start),
            shape != DocumentShape.emptyDescription
        {
            throw CommandFailure(
                status: notJSONLines,
                message: "\(name): not JSON Lines (no line of its start is a JSON document): it looks like \(shape)")
        }
        if JSONTextLayout.startsWithMultiLineDocument(start) {
            throw CommandFailure(
                status: notJSONLines,
                message:
                    "\(name): looks like a single JSON document, not JSON Lines (one document per line); use "
                    + "'entitlements convert' or 'entitlements check' for one document")
        }
        var pending: Data? = start
        return JSONLinesReader { () throws(ReadFailure) -> Data? in
            if let first = pending {
                pending = nil
                return first
            }
            return try read()
        }
    }

    /// How far the start is read to find a line that is JSON before the input is called not JSON Lines.
    static let notJSONLinesLookahead = 64 << 10

    /// Whether `data` has a non-blank line followed by a line break.
    private static func holdsFirstLine(_ data: Data) -> Bool {
        var sawContent = false
        for byte in data {
            if byte == UInt8(ascii: "\n") {
                if sawContent { return true }
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "\r") {
                sawContent = true
            }
        }
        return false
    }

    /// A read error in the middle of an input.
    struct ReadFailure: Error {
        var message: String
    }

    /// The whole input as one document for `format`: a bare StoreKit JWS file (`--from appstore`, or no
    /// `--from`) is read as the one transaction it is, as if it were the JSON array `["<jws>"]`.
    func readDocument(format: ProviderID?) throws(CommandFailure) -> Data {
        let data = try readAll()
        guard format == nil || format == .appStore, let jws = DocumentShape.compactJWS(in: data) else { return data }
        return Data(JSONValue.array([.string(jws)]).compactText.utf8)
    }

    /// The failure for a document that does not start like JSON (`not JSON: it looks like CSV …`), or `nil`
    /// when it does: then the parser's own located error says more.
    func notJSONFailure(_ data: Data, format: ProviderID?) -> CommandFailure? {
        // An empty input keeps the parser's own `$: the document is empty`.
        guard let shape = DocumentShape.description(ofNonJSON: data), shape != DocumentShape.emptyDescription else {
            return nil
        }
        var message = "\(displayName): not JSON: it looks like \(shape)"
        if DocumentShape.compactJWS(in: data) != nil, let format, format != .appStore {
            message += "; a StoreKit transaction is read with --from appstore"
        }
        return CommandFailure(status: .dataError, message: message)
    }

    /// The whole input, at most `BoundedDocumentReader.defaultMaximumDocumentLength` bytes: a larger one
    /// (an endless pipe, `/dev/zero`) is a `65` failure, read no further than the limit.
    func readAll() throws(CommandFailure) -> Data {
        let handle = try open()
        do {
            return try BoundedDocumentReader().read(handle)
        } catch {
            switch error {
            case .tooLarge(let documentError):
                throw CommandFailure(status: .dataError, message: "\(displayName): \(documentError)")
            case .unreadable(let reason):
                throw CommandFailure(status: .ioError, message: "\(displayName): cannot read: \(reason)")
            }
        }
    }
}
