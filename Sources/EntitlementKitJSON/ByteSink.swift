import Foundation

/// A growable byte buffer for the canonical encoder: one capacity check per write and no uniqueness
/// checks, which appending to an `Array` byte by byte pays on every byte. Noncopyable, so its storage
/// has exactly one owner and is freed once. Its writes are inlinable: the encoder lives in another module.
package struct ByteSink: ~Copyable {
    @usableFromInline package var base: UnsafeMutablePointer<UInt8>
    @usableFromInline package var capacity: Int
    @usableFromInline package var count = 0

    package init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inlinable
    package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inlinable
    package mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        for byte in bytes { append(byte) }
    }

    /// Room for `needed` more bytes: write them from the returned pointer on, then ``commit(_:)`` as many
    /// as were written. One call per value instead of one per byte: the single-byte `append` is not inlined
    /// into the encoder's module by this toolchain (noncopyable type), and a call per byte was 7 % of `migrate`.
    @inlinable
    package mutating func tail(reserving needed: Int) -> UnsafeMutablePointer<UInt8> {
        if count + needed > capacity { grow(to: count + needed) }
        return base + count
    }

    /// Counts `written` bytes put after ``tail(reserving:)`` as part of the text.
    @inlinable
    package mutating func commit(_ written: Int) {
        count += written
    }

    /// The bytes written, copied out, with room for `spare` more (a JSON Lines writer appends `\n`
    /// without a reallocation).
    package func data(spare: Int = 0) -> Data {
        var data = Data(capacity: count + spare)
        data.append(base, count: count)
        return data
    }

    /// The bytes written, copied out.
    package var data: Data { Data(bytes: base, count: count) }

    /// The bytes written, handed to a `Data` that frees them: no copy.
    package consuming func takeData() -> Data {
        let data = Data(
            bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
        discard self
        return data
    }

    /// The bytes written, copied out.
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @usableFromInline
    package mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
