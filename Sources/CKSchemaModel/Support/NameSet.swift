/// A set of names for the paths that dedupe hundreds of thousands of them (the fields of a
/// model-dense import): open addressing over the names' UTF-8, hashed eight bytes at a time.
/// `Set<String>` hashes each name with SipHash through `Hasher`, about 420 instructions an
/// insert there (Benchmarks/RESULTS.md, issue 36 point 4); this takes about a quarter of that.
/// Only insertion and membership: what the dedupers need.
package struct NameSet: Sendable {
    /// -1: empty; else an index into `names`.
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var names: [String] = []
    private var mask: Int

    package init(_ names: [String] = []) {
        slots = [Int32](repeating: -1, count: 16)
        mask = 15
        reserveCapacity(names.count)
        for n in names { insert(n) }
    }

    package var count: Int { names.count }

    /// Room for `n` names in all without growing.
    package mutating func reserveCapacity(_ n: Int) {
        names.reserveCapacity(n)
        hashes.reserveCapacity(n)
        if n * 2 > slots.count { rehash(to: n) }
    }

    package func contains(_ name: String) -> Bool {
        find(name, Self.hash(name)) >= 0
    }

    /// Inserts `name`; false (and nothing changed) when it is already there.
    @discardableResult
    package mutating func insert(_ name: String) -> Bool {
        let h = Self.hash(name)
        var s = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[s])
            if e < 0 { break }
            if hashes[e] == h, names[e] == name { return false }
            s = (s + 1) & mask
        }
        if (names.count + 1) * 2 > slots.count {
            rehash(to: names.count + 1)
            s = Int(truncatingIfNeeded: h) & mask
            while slots[s] >= 0 { s = (s + 1) & mask }
        }
        slots[s] = Int32(truncatingIfNeeded: names.count)
        names.append(name)
        hashes.append(h)
        return true
    }

    private func find(_ name: String, _ h: UInt64) -> Int {
        var s = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[s])
            if e < 0 { return -1 }
            if hashes[e] == h, names[e] == name { return e }
            s = (s + 1) & mask
        }
    }

    /// A table at most half full for `n` names (a power of two, so `mask` picks a slot).
    private mutating func rehash(to n: Int) {
        var size = slots.count
        while size < n * 2 { size <<= 1 }
        guard size != slots.count else { return }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (i, h) in hashes.enumerated() {
            var s = Int(truncatingIfNeeded: h) & mask
            while slots[s] >= 0 { s = (s + 1) & mask }
            slots[s] = Int32(truncatingIfNeeded: i)
        }
    }

    /// Chosen once per process, so that no set of names collides in every run (names come
    /// from untrusted sources; the table stays linear unless its hashes meet).
    private static let seed = UInt64.random(in: .min ... .max)

    private static func hash(_ name: String) -> UInt64 {
        if let h = name.utf8.withContiguousStorageIfAvailable({ b in ByteHash.hash(b.baseAddress, b.count, seed: seed) }) { return h }
        return Array(name.utf8).withUnsafeBufferPointer { ByteHash.hash($0.baseAddress, $0.count, seed: seed) }
    }
}

/// A fast, non-cryptographic hash of a byte string, eight bytes at a time, for the tables
/// that look names up straight from their bytes (`NameSet`; the record checker's field and
/// type tables). Not for anything an attacker could aim at: tables that hash with it bound
/// their probing by their fill, not by the hash.
package enum ByteHash {
    /// A hash of `p[0..<n]` (the last eight bytes overlap the ones before when `n` is no
    /// multiple of eight; a key under eight bytes is gathered whole). `p` may be nil when `n`
    /// is 0. `seed` varies the hash (a table of untrusted keys picks one per process).
    @inline(__always) package static func hash(_ p: UnsafePointer<UInt8>?, _ n: Int, seed: UInt64 = 0) -> UInt64 {
        let m: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var h = (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15) ^ seed
        guard let p else { return h ^ h >> 29 }
        let raw = UnsafeRawPointer(p)
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
        return h ^ h >> 29
    }

    /// The bytes of a key under eight bytes as one number (two overlapping four-byte loads
    /// from four bytes on; equal keys of one length give equal numbers and unequal ones not).
    @inline(__always) package static func short(_ raw: UnsafeRawPointer, _ n: Int) -> UInt64 {
        if n >= 4 {
            return UInt64(raw.loadUnaligned(as: UInt32.self)) << 32 | UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
        }
        var w: UInt64 = 0
        for i in 0..<n { w = w << 8 | UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) }
        return w
    }
}
