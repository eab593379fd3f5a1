import EntitlementKitCrypto
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
/// - **Per backend.** ``EntitlementClient`` keeps its files in a subdirectory named after its provider's
///   ``EntitlementProvider/storageNamespace`` (``partition(for:)``): two clients for two backends, or two
///   projects of one backend, share the directory but never an id, an entry or a floor. Files a version
///   before namespaces wrote at the top of the directory are still read, as the provider that wrote
///   them: an entry whose snapshot is that provider's, and the stored id when it is that provider's
///   (its anonymous form, or its entry is that provider's); the old floor still raises the floor. They
///   are never moved or rewritten; new writes go to the subdirectory.
/// - **Shared by processes.** An app and its extensions may open the same directory. The stored id and
///   the floor are read from disk on every call and changed under an exclusive lock on disk
///   (read-modify-write), so one process never writes back another's stale copy; the floor is never
///   lowered. Entry files need no lock: each write replaces a whole file atomically.
/// - File names never contain the app user id: an entry is `entry-<SHA-256 of the id's UTF-8>.cache`, so
///   any id (`../x`, `a/b`, 100 emoji, NUL) is a safe name of fixed length, and the id is not readable
///   from a directory listing. The file holds the id itself, checked on every read.
/// - Writes are atomic: a temporary file in the same directory, written whole, `fsync`ed, renamed over
///   the old file, then the directory `fsync`ed so the rename survives a power cut. A reader sees the
///   old file or the new one, never half of one. Opening a cache removes only the temporary files of
///   processes that have ended.
/// - A file holds a schema header, a SHA-256 digest of its payload, and the payload: the app user id,
///   `writtenAt`, the newest server time, the stale mark, the backend's validator, and the snapshot in the
///   unified JSON form.
///   A file that is truncated, has any byte changed, is of another schema, or belongs to another
///   customer reads as absent (the client then fetches): never a crash, never access.
/// - Files are opened without following symbolic links and created readable by the owner only (0600).
///
/// The directory is refused (``EntitlementCacheError/Code/unsafeDirectory``) when it is a symbolic
/// link, not a directory, writable by other users, or owned by another user: whoever can write there
/// could plant an entry. It is created (0700) when missing.
public actor DirectoryEntitlementCache: EntitlementCache {
    /// Files larger than this are not read (a cache file is a few kilobytes).
    static let maximumFileSize = CacheDirectoryFiles.maximumFileSize
    static let deviceFileName = "device.cache"

    /// What a namespace reads from the top of the directory, written before namespaces existed.
    struct Legacy: Sendable {
        let files: CacheDirectoryFiles
        let provider: ProviderID
        let isAnonymous: @Sendable (String) -> Bool
    }

    /// The directory the files live in.
    public nonisolated let directory: URL
    let files: CacheDirectoryFiles
    let legacy: Legacy?
    let logger: EntitlementLogger
    /// Called at each stage of a cut-over pair's identity write (tests only; see ``CutOverCache``).
    let identityWriteObserver: (@Sendable (IdentityPairWriteStage) -> Void)?

    /// Opens (creating when missing) the cache in `directory`, refusing an unsafe one, and removes
    /// temporary files that crashed writers left.
    public init(directory: URL, logger: EntitlementLogger = .disabled) throws(EntitlementCacheError) {
        try self.init(directory: directory, logger: logger, writeStageObserver: nil)
    }

    /// The same, calling `writeStageObserver` at each stage of every write and `identityWriteObserver` at each
    /// stage of a cut-over pair's identity write (a crash or interleaving test stops there).
    package init(
        directory: URL, logger: EntitlementLogger = .disabled,
        writeStageObserver: (@Sendable (CacheWriteStage) -> Void)?,
        identityWriteObserver: (@Sendable (IdentityPairWriteStage) -> Void)? = nil
    ) throws(EntitlementCacheError) {
        let files = CacheDirectoryFiles(path: directory.path, writeStageObserver: writeStageObserver)
        try Self.prepare(files.path)
        self.directory = directory
        self.files = files
        self.logger = logger
        self.identityWriteObserver = identityWriteObserver
        legacy = nil
        files.removeAbandonedTemporaryFiles()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: files.path)) ?? []
        where !name.hasPrefix(".") && !name.hasSuffix(".cache") {
            CacheDirectoryFiles(path: files.path + "/" + name).removeAbandonedTemporaryFiles()
        }
    }

    private init(namespaceOf parent: DirectoryEntitlementCache, provider: any EntitlementProvider) {
        let name = Self.directoryName(forNamespace: provider.storageNamespace)
        directory = parent.directory.appendingPathComponent(name, isDirectory: true)
        files = CacheDirectoryFiles(
            path: parent.files.path + "/" + name, writeStageObserver: parent.files.writeStageObserver)
        legacy = Legacy(
            files: parent.files, provider: provider.provider, isAnonymous: { [provider] in provider.isAnonymous($0) })
        logger = parent.logger
        identityWriteObserver = parent.identityWriteObserver
    }

    /// The file name of `appUserId`'s entry: `entry-` + the SHA-256 of its UTF-8 bytes in lowercase hex.
    public nonisolated static func entryFileName(for appUserId: String) -> String {
        "entry-" + SHA256.hexDigest(of: Array(appUserId.utf8)) + ".cache"
    }

    /// The subdirectory a namespace's files live in: the namespace itself when it is a plain name
    /// (letters, digits, `.`, `_`, `-`, at most 100, not starting with `.`), else `namespace-` + the
    /// SHA-256 of its UTF-8 in lowercase hex, so no namespace can name a path outside the directory.
    public nonisolated static func directoryName(forNamespace namespace: String) -> String {
        let isPlain =
            !namespace.isEmpty && namespace.utf8.count <= 100 && !namespace.hasPrefix(".")
            && namespace.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
        return isPlain ? namespace : "namespace-" + SHA256.hexDigest(of: Array(namespace.utf8))
    }

    // MARK: EntitlementCache

    /// The cache of `provider`'s namespace: the subdirectory ``directoryName(forNamespace:)`` of
    /// `provider.storageNamespace`, created on its first write, reading what this directory held before
    /// namespaces as described above.
    public nonisolated func partition(for provider: any EntitlementProvider) -> any EntitlementCache {
        DirectoryEntitlementCache(namespaceOf: self, provider: provider)
    }

    /// The device file's identity on disk (device, inode, size, modification time): every write replaces
    /// the file by a rename, so any change by any process gives another stamp. One `stat`, no read.
    public nonisolated func sharedStateStamp() -> CacheStamp? {
        files.stamp(of: Self.deviceFileName)
    }

    /// The entry for `appUserId`, or `nil` when there is none or its file cannot be trusted.
    public func entry(for appUserId: String) -> EntitlementCacheEntry? {
        let name = Self.entryFileName(for: appUserId)
        if let data = files.readFile(name) {
            guard let entry = CacheFileFormat.entry(from: data, for: appUserId) else {
                logger.log(
                    .warning, "cache: an entry file is damaged, of another schema or another customer's; ignored")
                return nil
            }
            return entry
        }
        return legacyEntry(for: appUserId)
    }

    /// Writes `appUserId`'s entry atomically.
    public func store(_ entry: EntitlementCacheEntry, for appUserId: String) throws(EntitlementCacheError) {
        try files.writeFile(CacheFileFormat.entryFile(entry, for: appUserId), to: Self.entryFileName(for: appUserId))
    }

    /// Deletes `appUserId`'s entry file (and the one written before namespaces, when it is this provider's).
    public func removeEntry(for appUserId: String) {
        let name = Self.entryFileName(for: appUserId)
        files.removeFile(name)
        if let legacy, legacyEntry(for: appUserId) != nil { legacy.files.removeFile(name) }
    }

    /// The stored app user id, read from disk.
    public func storedAppUserId() -> String? {
        partState().appUserId
    }

    /// Stores the app user id, under the lock on disk (the floor on disk is kept as it is). The write is this
    /// part's alone: it is newer than any cut-over pair write before it (see ``CutOverCache``).
    public func storeAppUserId(_ appUserId: String) throws(EntitlementCacheError) {
        try files.withLock { () throws(EntitlementCacheError) in
            var state = readDevice(files) ?? CacheFileFormat.DeviceState()
            state.appUserId = appUserId
            state.sequence += 1
            state.counterpart = nil
            try files.writeFile(CacheFileFormat.deviceFile(state), to: Self.deviceFileName)
        }
    }

    /// The stored trusted-instant floor, read from disk.
    public func trustedFloor() -> Date? {
        partState().trustedFloor
    }

    /// Raises the stored floor to `floor`, under the lock on disk; a lower floor (another process's, or
    /// an older one) leaves the stored one as it is.
    public func storeTrustedFloor(_ floor: Date) throws(EntitlementCacheError) {
        try files.withLock { () throws(EntitlementCacheError) in
            var state = readDevice(files) ?? CacheFileFormat.DeviceState()
            if let stored = state.trustedFloor, stored >= floor { return }
            state.trustedFloor = floor
            try files.writeFile(CacheFileFormat.deviceFile(state), to: Self.deviceFileName)
        }
    }

    // MARK: Files

    nonisolated func readDevice(_ files: CacheDirectoryFiles) -> CacheFileFormat.DeviceState? {
        guard let data = files.readFile(Self.deviceFileName) else { return nil }
        guard let state = CacheFileFormat.deviceState(from: data) else {
            logger.log(.warning, "cache: the device file is damaged or of another schema; ignored")
            return nil
        }
        return state
    }

    /// The entry written before namespaces for `appUserId`, when it is this namespace's provider's.
    nonisolated func legacyEntry(for appUserId: String) -> EntitlementCacheEntry? {
        guard let legacy, let data = legacy.files.readFile(Self.entryFileName(for: appUserId)),
            let entry = CacheFileFormat.entry(from: data, for: appUserId),
            entry.snapshot.provider == legacy.provider
        else { return nil }
        return entry
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
