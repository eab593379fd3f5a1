import Foundation

/// A stack of plain values with one owner: the tape builder's tape and paths, the canonical encoder's
/// bytes (``ByteSink``). Appends and reads skip the uniqueness and bounds checks of an `Array`, which cost
/// the builder about a tenth of its time on every value and the encoder a check per byte. Noncopyable, so
/// its storage has one owner and is freed once; its writes are inlinable (the encoder is in another module).
package struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    @usableFromInline package var base: UnsafeMutablePointer<Element>
    @usableFromInline package var capacity: Int
    @usableFromInline package var count = 0
    /// Whether `base` is still this buffer's to free (``takeStorage(maximumSlack:)`` hands it over).
    @usableFromInline var ownsStorage = true

    @inlinable
    package init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { if ownsStorage { base.deallocate() } }

    @inline(__always) subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index out of the buffer")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count, "index out of the buffer")
            base[index] = newValue
        }
    }

    @inlinable @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count &+= 1  // below `capacity`, which is an `Int`
    }

    @inlinable
    package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        (base + count).update(from: source, count: elements.count)
        count += elements.count
    }

    @inlinable
    package mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// Room for `needed` more elements: write them from the returned pointer on, then ``commit(_:)`` as many
    /// as were written. One call per value instead of one per byte: the single-element `append` is not
    /// inlined into the encoder's module by this toolchain (noncopyable type), and a call per byte was 7 % of
    /// `migrate`.
    @inlinable
    package mutating func tail(reserving needed: Int) -> UnsafeMutablePointer<Element> {
        if count + needed > capacity { grow(to: count + needed) }
        return base + count
    }

    /// Counts `written` elements put after ``tail(reserving:)``.
    @inlinable
    package mutating func commit(_ written: Int) {
        count += written
    }

    /// Drops the elements from `index` on.
    @inline(__always) mutating func removeSuffix(from index: Int) {
        precondition(index >= 0 && index <= count, "index out of the buffer")
        count = index
    }

    @inline(__always) mutating func removeLast() { removeSuffix(from: count - 1) }

    /// The elements in `range`, copied out.
    func elements(_ range: Range<Int>) -> [Element] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of the buffer")
        return Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Every element, copied out.
    package var array: [Element] { elements(0..<count) }

    /// Hands the elements' storage over to the caller, who frees it (`deallocate()` on its base address):
    /// no copy, unless more than `maximumSlack` elements of room are unused, when the elements are copied
    /// into storage of their exact size so that a large result keeps none of the room it grew into. The
    /// buffer holds nothing afterwards.
    mutating func takeStorage(maximumSlack: Int) -> (elements: UnsafeMutableBufferPointer<Element>, capacity: Int) {
        precondition(ownsStorage, "the storage was already taken")
        ownsStorage = false
        defer { count = 0 }
        guard capacity - count > maximumSlack else {
            return (UnsafeMutableBufferPointer(start: base, count: count), capacity)
        }
        let exact = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        exact.moveInitialize(from: base, count: count)
        base.deallocate()
        return (UnsafeMutableBufferPointer(start: exact, count: count), max(count, 1))
    }

    @inlinable
    package mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }
}

/// The canonical encoder's output: bytes written once and handed over as `Data`.
package typealias ByteSink = GrowableBuffer<UInt8>

extension GrowableBuffer where Element == UInt8 {
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
        ownsStorage = false
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}
