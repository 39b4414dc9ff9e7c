import Foundation
import Testing
import CKSchema

/// A small deterministic generator (SplitMix64), so a failing case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Malformed input never traps or hangs: every outcome is a schema or an InputError whose
/// diagnostics all point inside the file. A schema that parses always exports to text that
/// parses back to its cktool form.
@Suite struct CKDBFuzzTests {
    /// Checks one input; returns true when it parsed.
    @discardableResult
    func check(_ data: Data, _ label: String) -> Bool {
        let lines = data.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        do {
            let schema = try CKDBParser.parse(data, file: "f.ckdb")
            let text = CKDBExporter.export(schema).text
            let again = try? CKDBParser.parse(text, file: "export.ckdb")
            if again != CKDBExporter.cktoolForm(schema) {
                Issue.record("export of \(label) does not read back")
            }
            return true
        } catch {
            let d = error.diagnostics
            let wellFormed = !d.isEmpty && d.count <= CKDBParser.maxErrors + 1 && d.allSatisfy { d in
                guard let l = d.location else { return false }
                return d.severity == .error && l.line >= 1 && l.line <= lines && l.column >= 1
            }
            if !wellFormed {
                Issue.record("\(label): malformed diagnostics \(d)")
            }
            return false
        }
    }

    @Test(arguments: ownCKDBFiles)
    func everyTruncationIsHandled(file: String) throws {
        let data = try #require(FileManager.default.contents(atPath: file))
        let bytes = [UInt8](data)
        let step = bytes.count > 4000 ? 13 : 1
        var failures = 0
        for n in stride(from: 0, to: bytes.count, by: step) {
            let prefix = Data(bytes[0..<n])
            let parsed = check(prefix, "\(file) cut at \(n)")
            // Cut inside a record type (an open parenthesis after the last ';'): must be an error.
            let text = String(decoding: prefix, as: UTF8.self)
            let afterLastStatement = text.range(of: ";", options: .backwards).map { text[$0.upperBound...] } ?? Substring(text)
            let stripped = afterLastStatement.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined()
            if stripped.contains("("), parsed {
                Issue.record("\(file) cut at \(n) inside a record type parsed")
            }
            if !parsed { failures += 1 }
        }
        #expect(failures > 0)
    }

    @Test func randomBytesAreRejected() {
        var rng = SplitMix64(state: 0xC0FFEE)
        for i in 0..<300 {
            let count = Int.random(in: 0...2048, using: &rng)
            let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) })
            if check(data, "random bytes #\(i)") { Issue.record("random bytes #\(i) parsed") }
        }
    }

    @Test func tokenSoupNeverTraps() {
        let vocabulary = [
            "DEFINE", "SCHEMA", "RECORD", "TYPE", "CREATE", "ROLE", "GRANT", "READ", "WRITE", "TO", "LIST", "<", ">",
            "(", ")", ",", ";", "STRING", "INT64", "NUMBER", "PREFERRED", "AS", "DOUBLE", "ENCRYPTED", "QUERYABLE",
            "SORTABLE", "SEARCHABLE", "REFERENCE", "ASSET", "name", "\"_world\"", "\"___recordID\"", "\"open", "/*", "*/",
            "// c\n", "-- c\n", "\n", " ", "@", "\u{0}", "é", "\"\"", "x1", "_creator", "STRNG",
        ]
        var rng = SplitMix64(state: 42)
        var parsed = 0
        for i in 0..<1500 {
            var text = i % 2 == 0 ? "DEFINE SCHEMA\n" : ""
            for _ in 0..<Int.random(in: 0...80, using: &rng) {
                text += vocabulary.randomElement(using: &rng)! + " "
            }
            if check(Data(text.utf8), "token soup #\(i)") { parsed += 1 }
        }
        #expect(parsed < 1500)
    }

    @Test func mutatedCorpusFilesNeverTrap() throws {
        var rng = SplitMix64(state: 7)
        var parsedSome = false
        for file in allCKDBFiles {
            let original = [UInt8](try #require(FileManager.default.contents(atPath: file)))
            for i in 0..<40 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    guard !bytes.isEmpty else { break }
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    let length = min(Int.random(in: 1...12, using: &rng), bytes.count - at)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: bytes.removeSubrange(at..<(at + length))
                    case 1: bytes.insert(contentsOf: bytes[at..<(at + length)], at: Int.random(in: 0...bytes.count, using: &rng))
                    default: bytes[at] = [0x28, 0x29, 0x2C, 0x3B, 0x22, 0x3C, 0x3E, 0x2A, 0x2F].randomElement(using: &rng)!
                    }
                }
                if check(Data(bytes), "\(file) mutation #\(i)") { parsedSome = true }
            }
        }
        #expect(parsedSome)
    }
}
