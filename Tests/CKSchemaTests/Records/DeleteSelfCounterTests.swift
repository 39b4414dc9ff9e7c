import Testing
@testable import CKSchemaRecords

/// `RecordLimits.DeleteSelfCounter` keys records by bytes in a table of its own (issue 36
/// point 1); this holds it to the `[String: Int]` / `[String: Held]` counter it replaced, kept
/// here as the oracle, over generated saves: re-saves, moves between targets, several targets
/// per record, refused saves, records without a name, names given through `from:` (as `records
/// import` gives them), the store's references preloaded, and canonically equivalent names.
@Suite struct DeleteSelfCounterTests {
    /// The counter before issue 36 point 1, by Strings (zone and name joined by U+0001).
    struct Oracle {
        var totals: [String: Int] = [:]
        var byReferrer: [String: [(target: String, count: Int)]] = [:]

        /// Indices into `targets` of the first reference to each target the save takes past 750.
        mutating func add(_ targets: [String], from referrer: String, named: Bool) -> [Int] {
            let before = named ? byReferrer[referrer] ?? [] : []
            func held(_ t: String) -> Int { before.first { $0.target == t }?.count ?? 0 }
            var pairs: [(target: String, count: Int)] = []
            var firsts: [Int] = []
            for (k, t) in targets.enumerated() {
                if let i = pairs.firstIndex(where: { $0.target == t }) { pairs[i].count += 1 } else { pairs.append((t, 1)); firsts.append(k) }
            }
            var over: [Int] = []
            for (i, pair) in pairs.enumerated() where (totals[pair.target] ?? 0) - held(pair.target) + pair.count > RecordLimits.maxDeleteSelfReferences {
                over.append(firsts[i])
            }
            guard over.isEmpty else { return over }
            for (t, n) in before { totals[t, default: 0] -= n }
            for pair in pairs { totals[pair.target, default: 0] += pair.count }
            if named { byReferrer[referrer] = pairs }
            return []
        }

        mutating func preload(target: String, referrer: String, count: Int) {
            totals[target, default: 0] += count
            var pairs = byReferrer[referrer] ?? []
            if let i = pairs.firstIndex(where: { $0.target == target }) { pairs[i].count += count } else { pairs.append((target, count)) }
            byReferrer[referrer] = pairs
        }
    }

    /// A deterministic generator: the suite's SplitMix64 (CKDBFuzzTests), so a failing
    /// sequence can be replayed from its seed.
    typealias Rng = SplitMix64

    /// Target names: few, so that the limit is reached; some spelled two ways that Swift holds
    /// equal (the Kelvin sign and K; é composed and decomposed), some not ASCII at all.
    static let targets = ["t0", "t1", "K", "\u{212A}", "caf\u{E9}", "cafe\u{301}", "trip-00000001", "a-long-target-name-past-sixteen-bytes", "\u{65E5}\u{672C}"]
    static let zones = ["Journal", "_defaultZone", "Z\u{E9}", "Ze\u{301}"]

    static func run(seed: UInt64, saves: Int, targetPool: Int, referrerPool: Int) -> (agreed: Int, refused: Int, mismatch: String?) {
        var rng = Rng(state: seed)
        var counter = RecordLimits.DeleteSelfCounter()
        var oracle = Oracle()
        let zoneCount = 1 + rng.below(zones.count)
        func target() -> String { targets[rng.below(min(targetPool, targets.count))] }
        func referrerName() -> String { rng.below(7) == 0 ? (rng.below(2) == 0 ? "K" : "\u{212A}") : "r\(rng.below(referrerPool))" }
        // The store's references: counted first, as `records import` does; one target starts
        // near the limit.
        counter.preload(target: zones[0] + "\u{1}" + targets[0], referrer: zones[0] + "\u{1}stored", count: 740)
        oracle.preload(target: zones[0] + "\u{1}" + targets[0], referrer: zones[0] + "\u{1}stored", count: 740)
        for _ in 0..<rng.below(40) {
            let z = zones[rng.below(zoneCount)], t = target(), r = referrerName(), n = 1 + rng.below(rng.below(3) == 0 ? 600 : 4)
            counter.preload(target: z + "\u{1}" + t, referrer: z + "\u{1}" + r, count: n)
            oracle.preload(target: z + "\u{1}" + t, referrer: z + "\u{1}" + r, count: n)
        }
        var refused = 0
        var list = DeleteSelfList()
        for save in 0..<saves {
            let zone = zones[rng.below(zoneCount)]
            let named = rng.below(10) != 0
            let name = referrerName()
            let viaText = rng.below(4) == 0
            // Mostly one reference, sometimes several, to one target or more.
            let count = rng.below(5) == 0 ? 2 + rng.below(4) : 1
            let targets = (0..<count).map { _ in target() }
            // A fresh list now and then, else several records' references in one list (a chunk).
            if rng.below(8) == 0 { list = DeleteSelfList() }
            let start = list.count
            for (k, t) in targets.enumerated() {
                list.append(record: save, zone: zone, name: named ? name : nil, target: t, line: k, column: 1, absoluteLine: false, field: "f")
            }
            let got = viaText ? counter.add(list, start..<list.count, from: zone + "\u{1}" + name)
                              : counter.add(list, start..<list.count)
            let want = oracle.add(targets.map { zone + "\u{1}" + $0 }, from: zone + "\u{1}" + name, named: named || viaText)
            if got.map({ $0 - start }) != want {
                return (save, refused, "seed \(seed), save \(save): \(zone)/\(named || viaText ? name : "-") -> \(targets): counter \(got.map { $0 - start }), oracle \(want)")
            }
            for k in got where list.targetName(k) != targets[k - start] { return (save, refused, "seed \(seed), save \(save): named \(list.targetName(k))") }
            if !want.isEmpty { refused += 1 }
        }
        return (saves, refused, nil)
    }

    @Test(arguments: 0..<24)
    func theCounterAgreesWithTheDictionaries(_ i: Int) {
        var rng = Rng(state: UInt64(i) &* 7919 &+ 1)
        let (agreed, refused, mismatch) = Self.run(seed: UInt64(i), saves: 2_000 + rng.below(3_000), targetPool: 1 + rng.below(Self.targets.count),
                                                   referrerPool: [50, 400, 1_500, 4_000][i % 4])
        #expect(mismatch == nil, "\(mismatch ?? "")")
        // Each sequence reaches the limit, or it says little.
        #expect(refused > 0, "\(agreed) saves, none refused")
    }

    /// An empty text is a key like any other (`from:` and `preload` take any text).
    @Test func emptyKeysAreKeys() {
        var counter = RecordLimits.DeleteSelfCounter()
        // The list's key for zone "" and name "" is "\u{1}"; the texts below are keys as given.
        counter.preload(target: "\u{1}", referrer: "", count: 749)
        var list = DeleteSelfList()
        list.append(record: 0, zone: "", name: nil, target: "", line: 0, column: 1, absoluteLine: false, field: "f")
        #expect(counter.add(list, 0..<1, from: "").isEmpty)      // "" saved again: 749 -> 1
        #expect(counter.add(list, 0..<1, from: "\u{1}").isEmpty) // 2
        counter.preload(target: "\u{1}", referrer: "x", count: 748)  // 750
        #expect(counter.add(list, 0..<1, from: "y") == [0])
        #expect(counter.add(list, 0..<1, from: "x").isEmpty)     // x saved again: 748 -> 1
    }

    /// The table doubles past its first 64 slots many times over and finds every key again.
    @Test func manyTargetsEachCountedAlone() {
        var counter = RecordLimits.DeleteSelfCounter()
        var list = DeleteSelfList()
        for i in 0..<20_000 {
            list.append(record: i, zone: "Journal", name: "w\(i)", target: "trip-\(i % 5_000)", line: 0, column: 1, absoluteLine: false, field: "trip")
        }
        for i in 0..<20_000 { #expect(counter.add(list, i..<(i + 1)).isEmpty) }
        // 4 references to each trip so far: 746 more to trip-7 fit, the next does not.
        var more = DeleteSelfList()
        for i in 0..<747 {
            more.append(record: i, zone: "Journal", name: nil, target: "trip-7", line: 0, column: 1, absoluteLine: false, field: "trip")
        }
        for i in 0..<746 { #expect(counter.add(more, i..<(i + 1)).isEmpty) }
        #expect(counter.add(more, 746..<747) == [746])
    }
}
