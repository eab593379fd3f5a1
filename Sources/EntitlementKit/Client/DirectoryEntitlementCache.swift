import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The client's cache on disk: one file per customer in a directory the app chooses (an app-group
/// container on Apple platforms, so an extension reads what the app wrote), plus one file for the
/// device (the stored app user id and the trusted-instant floor).
///
/// - File names never contain the app user id: an entry is `entry-<SHA-256 of the id's UTF-8>.cache`, so
///   any id (`../x`, `a/b`, 100 emoji, NUL) is a safe name of fixed length, and the id is not readable
///   from a directory listing. The file holds the id itself, checked on every read.
/// - Writes are atomic: a temporary file in the same directory, written whole, `fsync`ed, renamed over
///   the old file, then the directory `fsync`ed so the rename survives a power cut. A reader sees the
///   old file or the new one, never half of one.
/// - A file holds a schema header, a SHA-256 digest of its payload, and the payload: the app user id,
///   `writtenAt`, the newest server time, the stale mark, and the snapshot in the unified JSON form.
///   A file that is truncated, has any byte changed, is of another schema, or belongs to another
///   customer reads as absent (the client then fetches): never a crash, never access.
/// - Files are opened without following symbolic links and created readable by the owner only (0600).
///
/// The directory is refused (``EntitlementCacheError/Code/unsafeDirectory``) when it is a symbolic
/// link, not a directory, writable by other users, or owned by another user: whoever can write there
/// could plant an entry. It is created (0700) when missing.
public actor DirectoryEntitlementCache: EntitlementCache {
    /// Files larger than this are not read (a cache entry is a few kilobytes).
    static let maximumFileSize = 4 << 20
    private static let deviceFileName = "device.cache"
    private static let temporaryPrefix = ".tmp-"

    /// The directory the files live in.
    public nonisolated let directory: URL
    private let directoryPath: String
    private let logger: EntitlementLogger
    private var device: CacheFileFormat.DeviceState?

    /// Opens (creating when missing) the cache in `directory`, refusing an unsafe one, and removes
    /// temporary files a crash may have left.
    public init(directory: URL, logger: EntitlementLogger = .disabled) throws(EntitlementCacheError) {
        var path = directory.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        try Self.prepare(path)
        self.directory = directory
        directoryPath = path
        self.logger = logger
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where name.hasPrefix(Self.temporaryPrefix) {
            _ = unlink(path + "/" + name)
        }
    }

    /// The file name of `appUserId`'s entry: `entry-` + the SHA-256 of its UTF-8 bytes in lowercase hex.
    public nonisolated static func entryFileName(for appUserId: String) -> String {
        "entry-" + SHA256.hexDigest(of: Array(appUserId.utf8)) + ".cache"
    }

    // MARK: EntitlementCache

    /// The entry for `appUserId`, or `nil` when there is none or its file cannot be trusted.
    public func entry(for appUserId: String) -> EntitlementCacheEntry? {
        let name = Self.entryFileName(for: appUserId)
        guard let data = readFile(name) else { return nil }
        guard let entry = CacheFileFormat.entry(from: data, for: appUserId) else {
            logger.log(.warning, "cache: an entry file is damaged, of another schema or another customer's; ignored")
            return nil
        }
        return entry
    }

    /// Writes `appUserId`'s entry atomically.
    public func store(_ entry: EntitlementCacheEntry, for appUserId: String) throws(EntitlementCacheError) {
        try writeFile(CacheFileFormat.entryFile(entry, for: appUserId), to: Self.entryFileName(for: appUserId))
    }

    /// Deletes `appUserId`'s entry file.
    public func removeEntry(for appUserId: String) {
        removeFile(Self.entryFileName(for: appUserId))
    }

    /// The stored app user id.
    public func storedAppUserId() -> String? {
        loadDevice().appUserId
    }

    /// Stores the app user id (atomically, with the floor).
    public func storeAppUserId(_ appUserId: String) throws(EntitlementCacheError) {
        var state = loadDevice()
        state.appUserId = appUserId
        try saveDevice(state)
    }

    /// The stored trusted-instant floor.
    public func trustedFloor() -> Date? {
        loadDevice().trustedFloor
    }

    /// Stores the trusted-instant floor (atomically, with the app user id).
    public func storeTrustedFloor(_ floor: Date) throws(EntitlementCacheError) {
        var state = loadDevice()
        state.trustedFloor = floor
        try saveDevice(state)
    }

    // MARK: Device file

    private func loadDevice() -> CacheFileFormat.DeviceState {
        if let device { return device }
        var state = CacheFileFormat.DeviceState()
        if let data = readFile(Self.deviceFileName) {
            if let stored = CacheFileFormat.deviceState(from: data) {
                state = stored
            } else {
                logger.log(.warning, "cache: the device file is damaged or of another schema; ignored")
            }
        }
        device = state
        return state
    }

    private func saveDevice(_ state: CacheFileFormat.DeviceState) throws(EntitlementCacheError) {
        try writeFile(CacheFileFormat.deviceFile(state), to: Self.deviceFileName)
        device = state
    }

    // MARK: Files

    /// The bytes of `name`, or `nil` when it is missing, a symbolic link, not a regular file, too large or
    /// unreadable.
    private func readFile(_ name: String) -> Data? {
        let descriptor = open(directoryPath + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size <= Self.maximumFileSize
        else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= Self.maximumFileSize {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return Data(bytes) }
            bytes += buffer[0..<count]
        }
        return nil
    }

    /// Replaces `name` with `data` atomically and durably.
    private func writeFile(_ data: Data, to name: String) throws(EntitlementCacheError) {
        let temporary = directoryPath + "/" + Self.temporaryPrefix + String(UInt64.random(in: .min ... .max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("create a temporary file") }
        var written = false
        defer { if !written { _ = unlink(temporary) } }
        do {
            defer { close(descriptor) }
            let bytes = [UInt8](data)
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw Self.failure("write a temporary file") }
                offset += count
            }
            guard fsync(descriptor) == 0 else { throw Self.failure("sync a temporary file") }
        }
        guard rename(temporary, directoryPath + "/" + name) == 0 else { throw Self.failure("rename into place") }
        written = true
        syncDirectory()
    }

    private func removeFile(_ name: String) {
        if unlink(directoryPath + "/" + name) == 0 { syncDirectory() }
    }

    /// Makes a rename or removal durable. Best effort: some file systems cannot sync a directory.
    private func syncDirectory() {
        let descriptor = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ action: String) -> EntitlementCacheError {
        EntitlementCacheError(
            .fileSystem, "could not \(action) in the cache directory: \(String(cString: strerror(errno)))")
    }

    /// Creates the directory when missing and refuses one an attacker could write to.
    private static func prepare(_ path: String) throws(EntitlementCacheError) {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else {
                throw EntitlementCacheError(
                    .fileSystem, "cannot inspect the cache directory: \(String(cString: strerror(errno)))")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw EntitlementCacheError(
                    .fileSystem, "cannot create the cache directory: \(error.localizedDescription)")
            }
            guard lstat(path, &status) == 0 else {
                throw EntitlementCacheError(
                    .fileSystem, "cannot inspect the cache directory: \(String(cString: strerror(errno)))")
            }
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFLNK {
            throw EntitlementCacheError(
                .unsafeDirectory, "the cache directory is a symbolic link; pass the real directory")
        }
        guard kind == S_IFDIR else {
            throw EntitlementCacheError(.unsafeDirectory, "the cache directory path is not a directory")
        }
        if status.st_mode & S_IWOTH != 0 {
            throw EntitlementCacheError(
                .unsafeDirectory, "the cache directory is writable by other users; any of them could plant an entry")
        }
        if status.st_uid != geteuid() {
            throw EntitlementCacheError(.unsafeDirectory, "the cache directory is owned by another user")
        }
    }
}
