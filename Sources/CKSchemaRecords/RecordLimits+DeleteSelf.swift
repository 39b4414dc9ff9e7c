@_spi(_Unicode) import Swift

extension RecordLimits {
    /// Counts deleteSelf references per target; a referring record saved again replaces every
    /// reference it held before (CloudKit replaces the whole record), so re-importing a record
    /// does not count it twice, and a record that now points elsewhere no longer counts against
    /// its old target.
    ///
    /// Records are keyed by bytes: their zone's, U+0001, their name's (`DeleteSelfList.key`),
    /// in an open-addressing table of its own over one array of key bytes, hashed once a key;
    /// no String is made per reference. The `[String: Int]` and `[String: Held]` dictionaries
    /// this replaces cost about 5,000 instructions a reference, 13% of `validate`
    /// (Benchmarks/RESULTS.md, issue 36 point 1). One entry serves a record as a target (the
    /// references to it) and as a referrer (what it holds); an entry is never removed (a count
    /// of 0 is no count), so memory grows with the distinct records named, about 60 bytes and
    /// the key's bytes each, the tables doubling.
    package struct DeleteSelfCounter {
        private struct Entry {
            var keyStart: Int
            var keyCount: Int
            /// References to this record, over every referrer.
            var total = 0
            /// What this record held when it was last counted as a referrer: with `held` -1,
            /// nothing; with `held` >= 0, `heldCount` references to the entry `held`; with
            /// `held` <= -2, the targets in `many[-2 - held]`.
            var heldCount = 0
            /// The key's hash (its low 32 bits): rehashing reads no key again.
            var hash: UInt32
            var held: Int32 = -1
        }

        /// Entry numbers (-1: empty), a power of two in size, at most half full.
        private var slots = [Int32](repeating: -1, count: 64)
        private var entries: [Entry] = []
        /// Every entry's key, one after the other (after a first byte of none: never empty, so
        /// its base address exists even when the only keys are empty).
        private var keys: [UInt8] = [0]
        /// The targets of the referrers that held more than one (rare), and the free ones.
        private var many: [[(target: Int32, count: Int)]] = []
        private var freeMany: [Int32] = []

        package init() {}

        /// Counts the references `range` of `list`: one record's (`list.refs[range]`). The
        /// referrer is `referrer` (its zone and name joined by U+0001) when given; else the
        /// record the references were read from, and nothing is kept when it has no name (the
        /// server names it: it is never saved again). Returns nothing, or, when the save would
        /// take a target past the limit, the index in `list.refs` of the first reference to
        /// each such target; then nothing is counted, as CloudKit refuses the save.
        package mutating func add(_ list: DeleteSelfList, _ range: Range<Int>, from referrer: String? = nil) -> [Int] {
            guard !range.isEmpty else { return [] }
            return list.bytes.withUnsafeBufferPointer { b in
                let first = list.refs[range.lowerBound]
                let r: Int
                if let referrer {
                    r = Self.canonical(referrer) { entry($0) }
                } else if let own = first.referrer {
                    r = key(b, zone: first.zone, name: own)
                } else {
                    r = -1
                }
                if range.count == 1 { return addOne(target: key(b, zone: first.zone, name: first.target), referrer: r) ? [] : [range.lowerBound] }
                return addMany(list, range, b, referrer: r)
            }
        }

        /// One reference to `t` from `r` (-1: unnamed): whether it is counted.
        private mutating func addOne(target t: Int, referrer r: Int) -> Bool {
            if r < 0 {
                guard entries[t].total < maxDeleteSelfReferences else { return false }
                entries[t].total += 1
                return true
            }
            let before = entries[r].held
            let beforeHere = before == Int32(truncatingIfNeeded: t) ? entries[r].heldCount : before <= -2 ? count(in: before, of: t) : 0
            // (`total - beforeHere + 1 > 750`, which cannot overflow: `beforeHere` is part of `total`.)
            guard entries[t].total - beforeHere < maxDeleteSelfReferences else { return false }
            forget(r)
            entries[t].total += 1
            entries[r].held = Int32(truncatingIfNeeded: t)
            entries[r].heldCount = 1
            return true
        }

        private mutating func addMany(_ list: DeleteSelfList, _ range: Range<Int>, _ b: UnsafeBufferPointer<UInt8>, referrer r: Int) -> [Int] {
            // This save's references per target, in the order the targets first appear.
            var pairs: [(target: Int32, count: Int)] = []
            var firsts: [Int] = []
            for k in range {
                let t = Int32(truncatingIfNeeded: key(b, zone: list.refs[k].zone, name: list.refs[k].target))
                if let i = pairs.firstIndex(where: { $0.target == t }) {
                    pairs[i].count += 1
                } else {
                    pairs.append((t, 1))
                    firsts.append(k)
                }
            }
            var over: [Int] = []
            let before = r >= 0 ? entries[r].held : -1
            for (i, pair) in pairs.enumerated() {
                let t = Int(pair.target)
                let beforeHere = before == pair.target ? entries[r].heldCount : before <= -2 ? count(in: before, of: t) : 0
                if entries[t].total - beforeHere > maxDeleteSelfReferences - pair.count { over.append(firsts[i]) }
            }
            guard over.isEmpty else { return over }
            if r >= 0 { forget(r) }
            for pair in pairs { entries[Int(pair.target)].total += pair.count }
            if r >= 0 { hold(r, pairs) }
            return []
        }

        /// What the `many` list `held` (<= -2) holds of `t`.
        private func count(in held: Int32, of t: Int) -> Int {
            let t = Int32(truncatingIfNeeded: t)
            return many[Int(-2 - held)].first { $0.target == t }?.count ?? 0
        }

        /// Takes back what the referrer `r` held: it is being saved again.
        private mutating func forget(_ r: Int) {
            let held = entries[r].held
            if held >= 0 {
                entries[Int(held)].total = entries[Int(held)].total.subtractingClamped(entries[r].heldCount)
            } else if held <= -2 {
                let m = Int(-2 - held)
                for (t, n) in many[m] { entries[Int(t)].total = entries[Int(t)].total.subtractingClamped(n) }
                many[m] = []
                freeMany.append(held)
            }
            entries[r].held = -1
            entries[r].heldCount = 0
        }

        /// Makes `pairs` (distinct targets) what `r` holds, in place of nothing.
        private mutating func hold(_ r: Int, _ pairs: [(target: Int32, count: Int)]) {
            if pairs.count == 1 {
                entries[r].held = pairs[0].target
                entries[r].heldCount = pairs[0].count
            } else if let slot = freeMany.popLast() {
                many[Int(-2 - slot)] = pairs
                entries[r].held = slot
            } else {
                many.append(pairs)
                entries[r].held = -1 - Int32(truncatingIfNeeded: many.count)
            }
        }

        /// References already saved (the store's records), counted before any new record.
        /// `target` and `referrer` are zone and name joined by U+0001.
        package mutating func preload(target: String, referrer: String, count: Int) {
            let t = Self.canonical(target) { entry($0) }
            let r = Self.canonical(referrer) { entry($0) }
            let t32 = Int32(truncatingIfNeeded: t)
            entries[t].total = entries[t].total.addingClamped(count)
            let held = entries[r].held
            if held == -1 {
                entries[r].held = t32
                entries[r].heldCount = count
            } else if held == t32 {
                entries[r].heldCount = entries[r].heldCount.addingClamped(count)
            } else if held >= 0 {
                entries[r].held = -1
                hold(r, [(held, entries[r].heldCount), (t32, count)])
            } else {
                let m = Int(-2 - held)
                if let i = many[m].firstIndex(where: { $0.target == t32 }) { many[m][i].count = many[m][i].count.addingClamped(count) } else { many[m].append((t32, count)) }
            }
        }

        // MARK: The table

        /// The entry of the key `zone`, U+0001, `name` (ranges of `b`), made if new.
        private mutating func key(_ b: UnsafeBufferPointer<UInt8>, zone: Range<Int>, name: Range<Int>) -> Int {
            let n = zone.count + 1 + name.count
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { k in
                let base = k.baseAddress!
                if zone.count > 0 { base.update(from: b.baseAddress! + zone.lowerBound, count: zone.count) }
                base[zone.count] = 1
                if name.count > 0 { (base + zone.count + 1).update(from: b.baseAddress! + name.lowerBound, count: name.count) }
                return entry(UnsafeBufferPointer(start: base, count: n))
            }
        }

        /// The entry of the key `k`, made if new.
        private mutating func entry(_ k: UnsafeBufferPointer<UInt8>) -> Int {
            guard let p = k.baseAddress else {
                // An empty key (an empty text given by `from:` or `preload`) at any address.
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { entry(UnsafeBufferPointer(start: $0.baseAddress!, count: 0)) }
            }
            let n = k.count
            let h = Self.hash(p, n)
            let h32 = UInt32(truncatingIfNeeded: h)
            var s = h & (slots.count - 1)
            let found: Int = slots.withUnsafeBufferPointer { sl in
                entries.withUnsafeBufferPointer { es in
                    keys.withUnsafeBufferPointer { kb in
                        let mask = sl.count - 1
                        while true {
                            let e = Int(sl[s])
                            if e < 0 { return -1 }
                            let x = es[e]
                            if x.hash == h32, x.keyCount == n, ByteTable.same(kb.baseAddress! + x.keyStart, p, n) { return e }
                            s = (s + 1) & mask
                        }
                    }
                }
            }
            if found >= 0 { return found }
            let e = entries.count
            entries.append(Entry(keyStart: keys.count, keyCount: n, hash: h32))
            keys.append(contentsOf: k)
            slots[s] = Int32(truncatingIfNeeded: e)
            if entries.count * 2 > slots.count { grow() }
            return e
        }

        /// Doubles the slots: entry numbers are Int32, so at most 2^31 entries (each takes 40
        /// bytes and its key's: memory runs out long before).
        private mutating func grow() {
            var new = [Int32](repeating: -1, count: slots.count * 2)
            let mask = new.count - 1
            new.withUnsafeMutableBufferPointer { sl in
                for (e, x) in entries.enumerated() {
                    var s = Int(x.hash) & mask
                    while sl[s] >= 0 { s = (s + 1) & mask }
                    sl[s] = Int32(truncatingIfNeeded: e)
                }
            }
            slots = new
        }

        /// A hash of `p[0..<n]` eight bytes at a time (the last eight overlap the ones before
        /// when `n` is no multiple of eight), each word folded in by a full 128-bit product, so
        /// that every byte reaches the low bits the table's mask keeps (keys differ mostly in
        /// their last digits). Its low 32 bits are all the table uses, so no more than 2^32 slots.
        @inline(__always) static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
            let raw = UnsafeRawPointer(p)
            let k: UInt64 = 0x9E37_79B9_7F4A_7C15
            @inline(__always) func mix(_ x: UInt64) -> UInt64 {
                let (hi, lo) = x.multipliedFullWidth(by: k)
                return hi ^ lo
            }
            var h = mix(UInt64(truncatingIfNeeded: n) ^ 0xA076_1D64_78BD_642F)
            if n >= 8 {
                var i = 0
                while i + 8 < n {
                    h = mix(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    i += 8
                }
                h = mix(h ^ raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
            } else if n >= 4 {
                h = mix(h ^ (UInt64(raw.loadUnaligned(as: UInt32.self)) << 32 | UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))))
            } else {
                var w: UInt64 = 0
                for i in 0..<n { w = w << 8 | UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) }
                h = mix(h ^ w)
            }
            return Int(truncatingIfNeeded: mix(h))
        }

        /// Runs `body` on the key of `text` (zone and name joined by U+0001): its UTF-8 when
        /// ASCII, else its canonical composition's (see `DeleteSelfList.key`).
        static func canonical<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            var text = text
            if let r = text.withUTF8({ DeleteSelfList.isASCII($0) ? body($0) : nil }) { return r }
            return text._nfcCodeUnits.withUnsafeBufferPointer(body)
        }
    }
}

extension Int {
    /// `self + n` and `self - n`, held at Int.max or Int.min instead of trapping (the counts
    /// the store gives can be anything).
    fileprivate func addingClamped(_ n: Int) -> Int {
        let (r, o) = addingReportingOverflow(n)
        return o ? (n > 0 ? .max : .min) : r
    }

    fileprivate func subtractingClamped(_ n: Int) -> Int {
        let (r, o) = subtractingReportingOverflow(n)
        return o ? (n < 0 ? .max : .min) : r
    }
}
