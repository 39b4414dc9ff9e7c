import Foundation
import CKSchemaSwift

/// The names a pass over every token looks for, found by the token's bytes: the pass asks
/// of each name token whether it is one of a few words, and making a `String` of every name
/// to switch over it was a fifth of a CloudKit-dense scan (Benchmarks/scan, `DENSE=1`).
/// `index(_:_:)` reads a name as `SwiftSource.name(_:)` does (a backtick name without its
/// backticks), so a pass that switches over `words[index]` sees the same names as before.
struct ScanNames {
    /// The words, in the order given.
    let words: [String]
    /// The words' indices by byte length, then first byte: `buckets[length << 8 | first]`, an
    /// array rather than a dictionary, since every identifier of a file is looked up (three
    /// passes of the scan each do, and hashing the key was most of them).
    private let buckets: [[(bytes: [UInt8], index: Int)]]
    /// The longest word's length: a longer token is no word.
    private let maxLength: Int
    /// For each `length << 8 | first`, whether a word has that shape: most names of a file
    /// share none with a word, and are passed over without their bucket (an array, retained
    /// and released at each look) being read.
    private let shapes: [Bool]

    init(_ words: [String]) {
        self.words = words
        let longest = words.map(\.utf8.count).max() ?? 0
        var b = [[(bytes: [UInt8], index: Int)]](repeating: [], count: (longest + 1) << 8)
        for (i, w) in words.enumerated() {
            let bytes = Array(w.utf8)
            b[bytes.count << 8 | Int(bytes.first ?? 0)].append((bytes, i))
        }
        buckets = b
        maxLength = longest
        shapes = b.map { !$0.isEmpty }
    }

    /// The index in `words` of name token `i`'s text, or nil (also for a token that is no name).
    func index(_ s: SwiftSource, _ i: Int) -> Int? {
        guard let bounds = s.nameBounds(i) else { return nil }
        let start = bounds.lowerBound
        let length = bounds.count
        guard length > 0, length <= maxLength else { return nil }
        let shape = length << 8 | Int(s.bytes[start])
        guard shapes[shape] else { return nil }
        let bucket = buckets[shape]
        return s.bytes.withUnsafeBufferPointer { bytes in
            search: for entry in bucket {
                for k in 1..<max(length, 1) where entry.bytes[k] != bytes[start + k] { continue search }
                return entry.index
            }
            return nil
        }
    }
}

/// The names of one file's assignments, found from a name token's bytes: an open-addressing
/// table of the names' bytes to their numbers, so that a lookup makes no `String` and hashes
/// no `String`. Bytes decide only where `String` equality is byte equality: every name here
/// and the token's text ASCII (a non-ASCII text can be canonically equal to other bytes, a
/// KELVIN SIGN to `K`); elsewhere `find` says nothing and the caller asks by `String`.
struct ScanNameIndex {
    private var slots: [Int] = []
    private var mask = 0
    private var entries: [(start: Int, length: Int, value: Int)] = []
    private var keyBytes: [UInt8] = []
    /// False when a name is not ASCII: then no lookup is decided by bytes.
    private var decides = false

    init() {}

    init(_ names: [String: Int]) {
        decides = names.keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        guard decides else { return }
        var size = 16
        while size < names.count * 2 { size <<= 1 }
        slots = [Int](repeating: -1, count: size)
        mask = size - 1
        for (name, value) in names {
            let start = keyBytes.count
            keyBytes += name.utf8
            let range = start..<keyBytes.count
            let h = keyBytes.withUnsafeBufferPointer { Self.hash($0, range) }
            var slot = h & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = entries.count
            entries.append((start, keyBytes.count - start, value))
        }
    }

    /// FNV-1a's starting state, varied per process: the names come from untrusted sources, and
    /// a fixed hash would let a file choose names that all fall in one slot (a quadratic table).
    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64.random(in: .min ... .max)

    /// FNV-1a of `bytes[range]` from `basis` (`find` hashes a token's bytes the same way as it
    /// checks them).
    @inline(__always) private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var h = basis
        for k in range { h = (h ^ UInt64(bytes[k])) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ h >> 32)
    }

    /// The number of the name spelt `bytes[range]`: -1 when no name here is spelt so, nil when
    /// the bytes cannot decide (a name here or the text is not ASCII).
    func find(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard decides else { return nil }
        var h = Self.basis
        for k in range {
            let c = bytes[k]
            if c >= 0x80 { return nil }
            h = (h ^ UInt64(c)) &* 0x100_0000_01b3
        }
        guard !entries.isEmpty else { return -1 }
        var slot = Int(truncatingIfNeeded: h ^ h >> 32) & mask
        let length = range.count
        while slots[slot] >= 0 {
            let e = entries[slots[slot]]
            if e.length == length {
                var same = true
                var k = 0
                while same, k < length { same = keyBytes[e.start + k] == bytes[range.lowerBound + k]; k += 1 }
                if same { return e.value }
            }
            slot = (slot + 1) & mask
        }
        return -1
    }
}

/// One file's assignments grouped by their name, the name found from its token's bytes: an
/// open-addressing table of the names' bytes (where they are in the file) to their groups, so
/// that an assignment makes no `String` and hashes no `String`; one `String` per name is made.
/// Bytes decide only while every name is ASCII (there `String` equality is byte equality);
/// from the first name that is not, the groups are found by `String`, as a `[String: _]`
/// finds them (a KELVIN SIGN name and a `K` name are one).
struct ScanNameGroups {
    typealias Entry = (body: Int, value: Int, container: Int, property: Bool)
    /// Each group's name (its first spelling, as a dictionary keeps its first key).
    private(set) var names: [String] = []
    /// Each group's entries, in the order added.
    private(set) var lists: [[Entry]] = []
    /// Each group's name bytes in the file and hash (for growing the table).
    private var keys: [(start: Int, length: Int, hash: Int)] = []
    private var slots: [Int32] = [Int32](repeating: -1, count: 32)
    /// Set from the first name that is not ASCII: then groups are found by `String`.
    private var byString: [String: Int]?

    /// FNV-1a's starting state, varied per process (the names are untrusted: a fixed hash
    /// would let a file choose names that all fall in one slot).
    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64.random(in: .min ... .max)

    /// Adds `entry` to the group of name token `token` (`s.name(token)`'s text).
    mutating func add(_ s: SwiftSource, _ token: Int, _ entry: Entry) {
        guard byString == nil, let bounds = s.nameBounds(token) else { return addByString(s.name(token), entry) }
        let found: Int? = s.bytes.withUnsafeBufferPointer { bytes in
            var h = Self.basis
            for k in bounds {
                let c = bytes[k]
                if c >= 0x80 { return nil }
                h = (h ^ UInt64(c)) &* 0x100_0000_01b3
            }
            let hash = Int(truncatingIfNeeded: h ^ h >> 32)
            let mask = slots.count - 1
            var slot = hash & mask
            let length = bounds.count
            while slots[slot] >= 0 {
                let g = Int(slots[slot])
                let key = keys[g]
                if key.hash == hash, key.length == length, memcmp(bytes.baseAddress! + key.start, bytes.baseAddress! + bounds.lowerBound, length) == 0 { return g }
                slot = (slot + 1) & mask
            }
            // A new name: a new group, the table grown to stay at most half full.
            let g = names.count
            slots[slot] = Int32(truncatingIfNeeded: g)
            keys.append((bounds.lowerBound, length, hash))
            names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[bounds]), as: UTF8.self))
            lists.append([])
            if keys.count * 2 > slots.count { grow() }
            return g
        }
        guard let g = found else { return addByString(s.name(token), entry) }
        lists[g].append(entry)
    }

    private mutating func grow() {
        var more = [Int32](repeating: -1, count: slots.count * 2)
        let mask = more.count - 1
        for (g, key) in keys.enumerated() {
            var slot = key.hash & mask
            while more[slot] >= 0 { slot = (slot + 1) & mask }
            more[slot] = Int32(truncatingIfNeeded: g)
        }
        slots = more
    }

    private mutating func addByString(_ name: String, _ entry: Entry) {
        if byString == nil { byString = Dictionary(names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a }) }
        if let g = byString?[name] { lists[g].append(entry); return }
        byString?[name] = names.count
        names.append(name)
        lists.append([entry])
    }
}
