/// An immutable open-addressing hash table from byte strings to small integers, so that
/// a record's type and field names are looked up straight from the input bytes,
/// without creating a `String` per record.
struct ByteTable: Sendable {
    private var slots: [Int32]
    private var mask: Int
    /// Each key's place in `keyBytes` and its value, in one array: a guessed entry is checked
    /// with one bounds check, not three.
    private struct Entry {
        var start: Int32
        var length: Int32
        var value: Int32
    }
    private var entries: [Entry] = []
    private var keyBytes: [UInt8] = [0]  // never empty, so its base address exists

    /// Builds the table; later duplicates of a key are ignored.
    init(_ entries: [(key: String, value: Int)]) {
        var size = 16
        while size < entries.count * 3 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (key, value) in entries {
            let bytes = Array(key.utf8)
            let found = bytes.withUnsafeBufferPointer { b in lookup(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count) }
            if found >= 0 { continue }
            let h = bytes.withUnsafeBufferPointer { b in Self.hash(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count) }
            var s = h & mask
            while slots[s] >= 0 { s = (s + 1) & mask }
            slots[s] = Int32(self.entries.count)
            self.entries.append(Entry(start: Int32(keyBytes.count), length: Int32(bytes.count), value: Int32(value)))
            keyBytes.append(contentsOf: bytes)
        }
    }

    /// A hash of `p[0..<n]` eight bytes at a time (the last eight overlap the ones before when
    /// `n` is no multiple of eight; a key under eight bytes is gathered byte by byte): a
    /// byte-wise FNV-1a here was 7% of validate, as every field name and type tag is looked up.
    @inline(__always) static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        let raw = UnsafeRawPointer(p)
        let m: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var h = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
                i += 8
            }
            h = (h ^ raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) &* m
        } else {
            h = (h ^ short(raw, n)) &* m
        }
        return Int(truncatingIfNeeded: h ^ h >> 29)
    }

    /// The bytes of a key under eight bytes as one number (two overlapping four-byte loads
    /// from four bytes on; equal keys of one length give equal numbers and unequal ones not).
    @inline(__always) private static func short(_ raw: UnsafeRawPointer, _ n: Int) -> UInt64 {
        if n >= 4 {
            return UInt64(raw.loadUnaligned(as: UInt32.self)) << 32 | UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
        }
        var w: UInt64 = 0
        for i in 0..<n { w = w << 8 | UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) }
        return w
    }

    /// Whether `a[0..<n]` and `b[0..<n]` are the same bytes, eight at a time.
    @inline(__always) static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        guard n >= 8 else { return short(x, n) == short(y, n) }
        var i = 0
        while i + 8 < n {
            if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        return x.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }

    /// The value of entry `e` (the entries are numbered in the order given, less duplicates)
    /// when its key is `p[0..<n]`, else -1, also when there is no entry `e`: a guess checked by
    /// its bytes, with no hash.
    @inline(__always) func value(ifEntry e: Int, is p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        guard e >= 0, e < entries.count else { return -1 }
        let x = entries[e]
        guard Int(x.length) == n else { return -1 }
        return keyBytes.withUnsafeBufferPointer { kb in Self.same(kb.baseAddress! + Int(x.start), p, n) } ? Int(x.value) : -1
    }

    /// The entry of the key `p[0..<n]`, or -1.
    @inline(__always) func entry(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var s = Self.hash(p, n) & mask
        return slots.withUnsafeBufferPointer { sl in
            keyBytes.withUnsafeBufferPointer { kb in
                entries.withUnsafeBufferPointer { es in
                    while true {
                        let e = Int(sl[s])
                        if e < 0 { return -1 }
                        let x = es[e]
                        if Int(x.length) == n, Self.same(kb.baseAddress! + Int(x.start), p, n) { return e }
                        s = (s + 1) & mask
                    }
                }
            }
        }
    }

    /// The value of entry `e` (one `entry` returned).
    @inline(__always) func value(ofEntry e: Int) -> Int { Int(entries[e].value) }

    /// The value for the key `p[0..<n]`, or -1. The probe of `entry`, returning the value from
    /// the entry it holds already: `entry` then `value(ofEntry:)` read the entry twice and cost
    /// validate 11 M instructions (of 3,175 M), so the loop is written out twice.
    @inline(__always) func lookup(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var s = Self.hash(p, n) & mask
        return slots.withUnsafeBufferPointer { sl in
            keyBytes.withUnsafeBufferPointer { kb in
                entries.withUnsafeBufferPointer { es in
                    while true {
                        let e = Int(sl[s])
                        if e < 0 { return -1 }
                        let x = es[e]
                        if Int(x.length) == n, Self.same(kb.baseAddress! + Int(x.start), p, n) { return Int(x.value) }
                        s = (s + 1) & mask
                    }
                }
            }
        }
    }
}
