import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// The committed rows of a ``DirectoryLedgerStore`` as one transaction reads them, with the stamp of
/// every file and folder it looked at, so the commit can tell whether another process changed them.
final class DirectoryLedgerRows: LedgerCommittedState, @unchecked Sendable {
    private let files: CacheDirectoryFiles
    private let lock = NSLock()
    private var stamps: [String: CacheStamp] = [:]

    init(files: CacheDirectoryFiles) {
        self.files = files
    }

    /// A row's file name: the SHA-256 of its key (any key, any length, fits a file name).
    static func fileName(_ key: String) -> String {
        SHA256.hexDigest(of: Array(key.utf8))
    }

    /// A row file: the SHA-256 of the rest, a newline, the key as a JSON string, a newline, the value.
    static func sealedRow(key: String, value: Data) -> Data {
        var rest = Data(JSONValue.string(key).compactText.utf8)
        rest.append(UInt8(ascii: "\n"))
        rest.append(value)
        return LedgerSeal.sealed(rest)
    }

    private func read(_ relativePath: String) throws(LedgerRefusal) -> Data? {
        // A row replaced while it was read is read again; a row that keeps changing is a failure.
        for _ in 0..<100 {
            let before = files.stamp(of: relativePath)
            let data = files.readFile(relativePath)
            let after = files.stamp(of: relativePath)
            guard before == after else { continue }
            lock.withLock { stamps[relativePath] = stamps[relativePath] ?? before }
            if data == nil, before != CacheStamp([-1]) {
                throw LedgerRefusal(.storage, "the ledger row \(relativePath) cannot be read")
            }
            return data
        }
        throw LedgerRefusal(.storage, "the ledger row \(relativePath) keeps changing while it is read")
    }

    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        let path = table.rawValue + "/" + Self.fileName(key)
        guard let sealed = try read(path) else { return nil }
        guard let row = Self.open(sealed), row.key.utf8.elementsEqual(key.utf8) else {
            throw Self.damaged(table: table, key: key, path: path)
        }
        return row.value
    }

    /// Every key of `table`. A damaged row still lists its key when the key it holds is the one its file
    /// is named after (so a listing of customers keeps the damaged one, whose read then refuses); a row
    /// whose key is damaged too names nothing and is left out.
    func keys(in table: LedgerTable) throws(LedgerRefusal) -> [String] {
        let folder = table.rawValue
        lock.withLock { stamps[folder] = stamps[folder] ?? files.stamp(of: folder) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: files.path + "/" + folder)) ?? []
        var keys: [String] = []
        for name in names where !name.hasPrefix(".") {
            guard let sealed = try read(folder + "/" + name) else { continue }
            if let key = Self.open(sealed)?.key ?? Self.claimedKey(sealed), Self.fileName(key) == name {
                keys.append(key)
            }
        }
        return keys
    }

    private static func damaged(table: LedgerTable, key: String, path: String) -> LedgerRefusal {
        LedgerRefusal(
            .damaged,
            "the ledger row \(table.rawValue)/\(key) (file \(path)) is damaged: its seal does not match its bytes",
            row: table.rawValue + "/" + key)
    }

    /// Whether every file and folder read still has the stamp it had (called under the lock).
    func readsAreCurrent() -> Bool {
        lock.withLock { stamps }.allSatisfy { path, stamp in files.stamp(of: path) == stamp }
    }

    /// The key and value of a row whose seal matches, else `nil`.
    private static func open(_ sealed: Data) -> (key: String, value: Data)? {
        guard let rest = LedgerSeal.opened(sealed), let newline = rest.firstIndex(of: UInt8(ascii: "\n")),
            case .string(let key)? = try? JSONValue.parse(Data(rest[rest.startIndex..<newline]))
        else { return nil }
        return (key, Data(rest[(newline + 1)...]))
    }

    /// The key a row whose seal does not match says it holds (trusted only when its hash is the file's name).
    private static func claimedKey(_ sealed: Data) -> String? {
        let lines = sealed.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, case .string(let key)? = try? JSONValue.parse(Data(lines[1])) else { return nil }
        return key
    }
}

/// A SHA-256 seal in front of a file's bytes: 64 hex digits and a newline.
enum LedgerSeal {
    static func sealed(_ bytes: Data) -> Data {
        var data = Data(SHA256.hexDigest(of: Array(bytes)).utf8)
        data.append(UInt8(ascii: "\n"))
        data.append(bytes)
        return data
    }

    /// The bytes behind a seal that matches them, else `nil`.
    static func opened(_ data: Data) -> Data? {
        guard data.count > 65, data[data.startIndex + 64] == UInt8(ascii: "\n") else { return nil }
        let seal = String(decoding: data.prefix(64), as: UTF8.self)
        let rest = Data(data.dropFirst(65))
        return SHA256.hexDigest(of: Array(rest)) == seal ? rest : nil
    }
}

/// The rows one commit writes, kept whole in one sealed file until they are all in place.
struct LedgerJournal {
    struct Row {
        var table: LedgerTable
        var key: String
        /// `nil`: the row is removed.
        var value: Data?
    }

    var rows: [Row]

    init(rows: [Row]) {
        self.rows = rows
    }

    init(sealed: Data) throws(LedgerRefusal) {
        let damaged = LedgerRefusal(.storage, "the ledger directory's journal is damaged (its seal does not match)")
        guard let bytes = LedgerSeal.opened(sealed), LedgerRowFormat.isCurrent(bytes) else { throw damaged }
        var reader = LedgerRowReader(bytes, table: .threads)
        var rows: [Row] = []
        do throws(LedgerRefusal) {
            for _ in 0..<(try reader.count()) {
                guard let table = LedgerTable(rawValue: try reader.string()) else { throw damaged }
                let key = try reader.string()
                rows.append(Row(table: table, key: key, value: try reader.bool() ? Data(try reader.byteArray()) : nil))
            }
        } catch {
            throw damaged
        }
        self.rows = rows
    }

    func sealedBytes() -> Data {
        var writer = LedgerRowWriter()
        writer.count(rows.count)
        for row in rows {
            writer.string(row.table.rawValue)
            writer.string(row.key)
            writer.bool(row.value != nil)
            if let value = row.value { writer.bytes(value) }
        }
        return LedgerSeal.sealed(writer.data)
    }
}
