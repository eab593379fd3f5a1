import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// The layout a ``DirectoryLedgerStore`` had before its log: a folder per table, one file per row (a
/// SHA-256 seal, the key as a JSON string, the value; named by the SHA-256 of the key), and a `journal`
/// of the last commit while it was being applied. Such a directory is converted once, when a store opens
/// it: every row (and the journal's, over them) is written into a new log, synced and renamed into place,
/// and only then are the folders removed — a store that finds a log and folders (a conversion cut short)
/// keeps the log and removes the folders. Rows of the first layout (JSON values) are carried as they are;
/// the ledger reads them as it meets them and writes them again in ``LedgerRowFormat``.
enum LedgerFolderLayout {
    static let journalName = "journal"

    /// Whether `directory` holds anything of the folder layout.
    static func isPresent(in directory: String) -> Bool {
        ([journalName] + LedgerTable.allCases.map(\.rawValue)).contains {
            FileManager.default.fileExists(atPath: directory + "/" + $0)
        }
    }

    /// Removes the folders and the journal (the log holds their rows).
    static func remove(in directory: String) {
        for name in [journalName] + LedgerTable.allCases.map(\.rawValue) {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Writes every row of the folders of `directory`, then the journal's, into `writer`. A row whose seal
    /// does not match is carried as damaged when the key it names is the one its file is named after;
    /// a row whose key cannot be told, or an unreadable journal, stops the conversion (nothing is removed).
    static func convert(_ directory: String, into writer: LedgerLogFileWriter) throws(LedgerRefusal) {
        for table in LedgerTable.allCases {
            let folder = CacheDirectoryFiles(path: directory + "/" + table.rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                guard let sealed = folder.readFile(name) else {
                    throw refusal("the row file \(folder.path)/\(name) cannot be read")
                }
                if let row = open(sealed), fileName(row.key) == name {
                    try writer.add(LedgerLogFormat.Row(table: table, key: row.key, kind: .value, value: row.value))
                } else if let key = claimedKey(sealed), fileName(key) == name {
                    try writer.add(LedgerLogFormat.Row(table: table, key: key, kind: .damaged, value: Data()))
                } else {
                    throw refusal("the row file \(folder.path)/\(name) is damaged where its key is")
                }
            }
        }
        let files = CacheDirectoryFiles(path: directory)
        guard let journal = files.readFile(journalName) else {
            guard files.stamp(of: journalName) == CacheStamp([-1]) else {
                throw refusal("the journal \(directory)/\(journalName) cannot be read")
            }
            return
        }
        for row in try LedgerJournal(sealed: journal).rows {
            try writer.add(
                LedgerLogFormat.Row(
                    table: row.table, key: row.key, kind: row.value == nil ? .removed : .value,
                    value: row.value ?? Data()))
        }
    }

    private static func refusal(_ what: String) -> LedgerRefusal {
        LedgerRefusal(
            .storage,
            "\(what), so the folder layout cannot be converted to a log; restore the file, or rebuild the state "
                + "by replaying its log into a new folder (`entitlements ledger replay --state NEW LOG`)")
    }

    /// A row's file name: the SHA-256 of its key.
    static func fileName(_ key: String) -> String {
        SHA256.hexDigest(of: Array(key.utf8))
    }

    /// The key and value of a row file whose seal matches, else `nil`.
    private static func open(_ sealed: Data) -> (key: String, value: Data)? {
        guard let rest = LedgerSeal.opened(sealed), let newline = rest.firstIndex(of: UInt8(ascii: "\n")),
            case .string(let key)? = try? JSONValue.parse(Data(rest[rest.startIndex..<newline]))
        else { return nil }
        return (key, Data(rest[(newline + 1)...]))
    }

    /// The key a row file whose seal does not match says it holds.
    private static func claimedKey(_ sealed: Data) -> String? {
        let lines = sealed.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, case .string(let key)? = try? JSONValue.parse(Data(lines[1])) else { return nil }
        return key
    }
}

/// A SHA-256 seal in front of a file's bytes: 64 hex digits and a newline (the folder layout's rows).
enum LedgerSeal {
    /// The bytes behind a seal that matches them, else `nil`.
    static func opened(_ data: Data) -> Data? {
        guard data.count > 65, data[data.startIndex + 64] == UInt8(ascii: "\n") else { return nil }
        let seal = String(decoding: data.prefix(64), as: UTF8.self)
        let rest = Data(data.dropFirst(65))
        return SHA256.hexDigest(of: Array(rest)) == seal ? rest : nil
    }
}

/// The folder layout's journal: the rows of the commit being applied, kept whole in one sealed file.
struct LedgerJournal {
    struct Row {
        var table: LedgerTable
        var key: String
        /// `nil`: the row is removed.
        var value: Data?
    }

    var rows: [Row]

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
}
