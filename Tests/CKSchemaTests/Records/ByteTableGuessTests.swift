import Testing
@testable import CKSchemaRecords

/// `checkFields` tries the table entry after the last field found before hashing
/// (`ByteTable.value(ifEntry:is:)`, issue 36 point 1): a guess must give what `lookup` gives
/// when right, and -1 when wrong, whatever the entry, the key or a duplicate before it.
@Suite struct ByteTableGuessTests {
    @Test func aGuessAgreesWithTheLookup() {
        let names = ["title", "startedAt", "endedAt", "title", "", "a", "ab", "abcdefgh", "abcdefghi", "trip", "tripX", "\u{E9}t\u{E9}"]
        // The second "title" is a duplicate: ignored, so entries and values part from there.
        let table = ByteTable(names.enumerated().map { (key: $0.element, value: 100 + $0.offset) })
        let probes = names + ["titl", "titles", "abcdefgj", "b", "startedAT"]
        for key in probes {
            let bytes = Array(key.utf8) + [0]  // a base address even for ""
            bytes.withUnsafeBufferPointer { b in
                let p = b.baseAddress!, n = b.count - 1
                let want = table.lookup(p, n)
                let e = table.entry(p, n)
                #expect((e < 0 ? -1 : table.value(ofEntry: e)) == want, "\(key)")
                for guess in -1...(names.count + 1) {
                    let got = table.value(ifEntry: guess, is: p, n)
                    #expect(got == -1 || got == want, "\(key) at \(guess)")
                    #expect((got == want) == (guess == e) || want == -1, "\(key) at \(guess)")
                }
            }
        }
    }
}
