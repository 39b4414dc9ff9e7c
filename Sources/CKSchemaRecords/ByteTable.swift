/// An immutable open-addressing hash table from byte strings to small integers, so that
/// a record's type and field names are looked up straight from the input bytes,
/// without creating a `String` per record.
struct ByteTable: Sendable {
    private var slots: [Int32]
    private var mask: Int
    private var keyStart: [Int32] = []
    private var keyLength: [Int32] = []
    private var keyBytes: [UInt8] = [0]  // never empty, so its base address exists
    private var values: [Int32] = []

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
            slots[s] = Int32(values.count)
            keyStart.append(Int32(keyBytes.count))
            keyLength.append(Int32(bytes.count))
            keyBytes.append(contentsOf: bytes)
            values.append(Int32(value))
        }
    }

    @inline(__always) static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var h: UInt32 = 2_166_136_261
        for i in 0..<n { h = (h ^ UInt32(p[i])) &* 16_777_619 }
        return Int(h)
    }

    /// The value for the key `p[0..<n]`, or -1.
    @inline(__always) func lookup(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var s = Self.hash(p, n) & mask
        return slots.withUnsafeBufferPointer { sl in
            keyBytes.withUnsafeBufferPointer { kb in
                while true {
                    let e = Int(sl[s])
                    if e < 0 { return -1 }
                    if Int(keyLength[e]) == n {
                        let k = kb.baseAddress! + Int(keyStart[e])
                        var same = true
                        var i = 0
                        while i < n { if k[i] != p[i] { same = false; break }; i += 1 }
                        if same { return Int(values[e]) }
                    }
                    s = (s + 1) & mask
                }
            }
        }
    }
}
