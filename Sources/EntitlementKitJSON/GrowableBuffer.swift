/// A stack of plain words that the tape builder owns alone: appends and reads without the uniqueness and
/// bounds checks of an `Array`, which cost the builder about a tenth of its time on every value.
struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0
    /// Whether `base` is still this buffer's to free (``takeStorage(maximumSlack:)`` hands it over).
    private var ownsStorage = true

    init(capacity: Int) {
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

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
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

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
