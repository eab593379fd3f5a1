import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where ``CacheDirectoryFiles/writeFile(_:to:)`` is: a test process stops there to be killed mid-write.
/// (`package`: a test hook, not API.)
package enum CacheWriteStage: String, Sendable, CaseIterable {
    /// The temporary file is created and holds part of the bytes.
    case partlyWritten
    /// The temporary file holds every byte and is synced; the old file is still in place.
    case synced
    /// The temporary file has been renamed over the old one; the directory is not yet synced.
    case renamed
}

/// The file operations of one cache directory: strict reads, atomic and durable writes, removal, and the
/// lock on disk that serialises read-modify-write of shared state between processes.
///
/// Temporary files are named `.tmp-<process id>-<random>`, so opening a cache removes only those whose
/// writer process has ended (a crash's leftovers) and never another live process's write in progress.
package struct CacheDirectoryFiles: Sendable {
    /// Files larger than this are not read (a cache file is a few kilobytes).
    static let maximumFileSize = 4 << 20
    static let temporaryPrefix = ".tmp-"
    private static let lockFileName = ".lock"

    /// The directory, without a trailing slash.
    package let path: String
    /// Called at each stage of every write (tests only).
    package let writeStageObserver: (@Sendable (CacheWriteStage) -> Void)?

    package init(path: String, writeStageObserver: (@Sendable (CacheWriteStage) -> Void)? = nil) {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.path = path
        self.writeStageObserver = writeStageObserver
    }

    /// The bytes of `name`, or `nil` when it is missing, a symbolic link, not a regular file, too large or
    /// unreadable.
    package func readFile(_ name: String) -> Data? {
        let descriptor = open(path + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
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

    /// Replaces `name` with `data` atomically and durably: a temporary file in the same directory, written
    /// whole, synced, renamed over the old file, then the directory synced so the rename survives a power
    /// cut. A reader sees the old file or the new one, never half of one.
    package func writeFile(_ data: Data, to name: String) throws(EntitlementCacheError) {
        try makeDirectoryIfMissing()
        let temporary =
            path + "/" + Self.temporaryPrefix + "\(getpid())-" + String(UInt64.random(in: .min ... .max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("create a temporary file") }
        var renamed = false
        defer { if !renamed { _ = unlink(temporary) } }
        do {
            defer { close(descriptor) }
            let bytes = [UInt8](data)
            var offset = 0
            while offset < bytes.count {
                // Half first, so a test can stop the writer with a partly written temporary file.
                let end = offset == 0 && bytes.count > 1 ? bytes.count / 2 : bytes.count
                let count = bytes[offset..<end].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw Self.failure("write a temporary file") }
                if offset == 0 { writeStageObserver?(.partlyWritten) }
                offset += count
            }
            guard fsync(descriptor) == 0 else { throw Self.failure("sync a temporary file") }
        }
        writeStageObserver?(.synced)
        guard rename(temporary, path + "/" + name) == 0 else { throw Self.failure("rename into place") }
        renamed = true
        writeStageObserver?(.renamed)
        syncDirectory()
    }

    /// `name`'s device, inode, size and modification time (or a stamp of "missing").
    package func stamp(of name: String) -> CacheStamp {
        var status = stat()
        guard lstat(path + "/" + name, &status) == 0 else { return CacheStamp([-1]) }
        #if canImport(Darwin)
            let modified = status.st_mtimespec
        #else
            let modified = status.st_mtim
        #endif
        return CacheStamp(
            [
                Int64(truncatingIfNeeded: status.st_dev), Int64(truncatingIfNeeded: status.st_ino),
                Int64(truncatingIfNeeded: status.st_size), Int64(truncatingIfNeeded: modified.tv_sec),
                Int64(truncatingIfNeeded: modified.tv_nsec),
            ])
    }

    /// Removes `name`; whether there was one.
    @discardableResult
    package func removeFile(_ name: String) -> Bool {
        guard unlink(path + "/" + name) == 0 else { return false }
        syncDirectory()
        return true
    }

    /// Runs `body` holding the directory's lock on disk (an exclusive `flock` on `.lock`), so a
    /// read-modify-write of shared state by another process (an app and its extension) cannot interleave
    /// with it. The lock is the kernel's: a process killed while holding it releases it.
    package func withLock<T>(_ body: () throws(EntitlementCacheError) -> T) throws(EntitlementCacheError) -> T {
        try makeDirectoryIfMissing()
        let descriptor = open(path + "/" + Self.lockFileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("open the lock file") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.failure("lock the lock file") }
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Removes the temporary files of writers that have ended (a crash's leftovers); a live process's
    /// write in progress, and a file whose writer cannot be told, are left alone.
    package func removeAbandonedTemporaryFiles() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where name.hasPrefix(Self.temporaryPrefix) {
            let rest = name.dropFirst(Self.temporaryPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let writer = pid_t(rest[..<dash]), writer > 0,
                writer != getpid()
            else { continue }
            if kill(writer, 0) != 0 && errno == ESRCH { _ = unlink(path + "/" + name) }
        }
    }

    /// Creates the directory (owner only) when missing; a namespace's directory is made on its first write.
    private func makeDirectoryIfMissing() throws(EntitlementCacheError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Self.failure("create the directory") }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw EntitlementCacheError(.unsafeDirectory, "a cache directory path is not a directory")
        }
    }

    /// Makes a rename or removal durable. Best effort: some file systems cannot sync a directory.
    private func syncDirectory() {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func failure(_ action: String) -> EntitlementCacheError {
        EntitlementCacheError(
            .fileSystem, "could not \(action) in the cache directory: \(String(cString: strerror(errno)))")
    }
}
