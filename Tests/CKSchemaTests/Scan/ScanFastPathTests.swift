import Foundation
import Testing
@testable import CKSchemaLinter
@testable import CKSchemaModel
@testable import CKSchemaPredicate
@testable import CKSchemaScan
@testable import CKSchemaSwift

/// The scan's fast paths (issue 36 point 4, the dense scan) against the general paths they
/// stand for: each must give the same answer on every token of every Swift fixture and on
/// sources written to reach its edges (backtick names, non-ASCII names, nesting).
@Suite struct ScanFastPathTests {
    /// Every Swift fixture, lexed, and a few sources written for the edges.
    static func sources() throws -> [SwiftSource] {
        let root = Paths.fixture("")
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var out = try files.sorted().map { f in SwiftSource(bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + f))), file: f) }
        out += edgeSources.enumerated().map { SwiftSource(bytes: Array($0.element.utf8), file: "edge\($0.offset).swift") }
        return out
    }

    /// Backtick labels, a KELVIN SIGN (U+212A, canonically `K`) in a label, a decomposed `é`,
    /// unterminated backticks, nested functions and types, `init`s that share a brace.
    static let edgeSources = [
        "func f() { record.setValue(v, forKey: \"a\"); record.setValue(v, for\u{212A}ey: \"b\"); x(`forKey`: 1, `recordType`: 2) }",
        "let q = CKQuery(recordType: \"Entry\", predicate: NSPredicate(format: \"rank > %@\", a)); f(caf\u{E9}: 1, cafe\u{301}: 2)",
        "struct A { struct B { func g() { func h() { let x = 1 } } }; init() {} init?(x: Int) {} }\nextension A.B { var v: Int { 1 } }",
        "func f(`a b`: Int, `: Int) { g(`x`: 1, `: 2 }",
        "enum E: String { case a = \"x\", b }\nclass C { static let zoneID = CKRecordZone.ID(zoneName: \"Z\"); func s() { CKRecord(recordType: \"T\", recordID: CKRecord.ID(recordName: \"n\", zoneID: Self.zoneID)) } }",
    ]

    /// Labels the scan asks for, and labels that clash with them in length or first byte.
    static let labels = ["recordType", "recordID", "zoneID", "zoneName", "predicate", "format", "value", "forKey", "key", "with", "identifier",
                         "subscriptionID", "options", "saving", "deleting", "inZoneWith", "withID", "recordZoneIDs", "database", "x", "a b", "caf\u{E9}", "\u{212A}"]

    @Test func argumentAgreesWithTheListOfArguments() throws {
        var checked = 0
        for s in try Self.sources() {
            let r = SwiftCallReader(s)
            for p in s.tokens.indices where s.is(p, .leftParen) || s.is(p, .leftBracket) || p % 7 == 0 {
                var asked = Set(Self.labels)
                for a in r.arguments(p) { if let l = a.label { asked.insert(l) } }
                for label in asked {
                    let fast = r.argument(p, label), listed = r.argumentByList(p, label)
                    if fast != listed { Issue.record("\(s.file) token \(p) label \(label): \(String(describing: fast)) vs \(String(describing: listed))"); return }
                    checked += 1
                }
            }
        }
        #expect(checked > 50_000)
    }

    @Test func nameIsAgreesWithName() throws {
        var checked = 0
        for s in try Self.sources() {
            for i in -1...s.tokens.count {
                let words = i >= 0 && i < s.tokens.count && s.isName(i) ? Self.labels + [s.name(i), s.text(i)] : Self.labels
                for w in words {
                    let general = i >= 0 && s.isName(i) && s.name(i) == w
                    if s.nameIs(i, w) != general { Issue.record("\(s.file) token \(i) '\(w)': nameIs \(!general)"); return }
                    checked += 1
                }
            }
        }
        #expect(checked > 100_000)
    }

    /// The KELVIN SIGN case the byte comparison alone would miss: `String`'s `==` is canonical.
    @Test func nameIsIsCanonicalEquivalence() {
        let s = SwiftSource(bytes: Array("for\u{212A}ey caf\u{E9} cafe\u{301} `forKey`".utf8), file: "k.swift")
        #expect(s.nameIs(0, "forKey") == ("for\u{212A}ey" == "forKey"))
        #expect(s.nameIs(1, "cafe\u{301}"))
        #expect(s.nameIs(2, "caf\u{E9}"))
        #expect(s.nameIs(3, "forKey"))
        #expect(!s.nameIs(3, "`forKey`"))
    }

    @Test func innermostByRunsAgreesTokenByToken() throws {
        var checked = 0
        for s in try Self.sources() {
            let r = SwiftCallReader(s)
            let n = s.tokens.count
            for spans in [r.bodies, r.containers.map { ($0.open, $0.close) }] {
                #expect(SwiftCallReader.innermostByRun(spans, count: n) == SwiftCallReader.innermostByToken(spans, count: n))
                checked += 1
            }
        }
        // Nested, touching, repeated and improperly nested spans, and spans that were never sorted.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let n = Int.random(in: 0...40, using: &rng)
            var spans: [(Int, Int)] = (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                let a = Int.random(in: 0...max(n, 1), using: &rng)
                return (a, a + Int.random(in: 0...12, using: &rng))
            }
            if Bool.random(using: &rng) { spans.sort { $0.0 < $1.0 } }
            let byRun = SwiftCallReader.innermostByRun(spans, count: n), byToken = SwiftCallReader.innermostByToken(spans, count: n)
            if byRun != byToken { Issue.record("spans \(spans) over \(n): \(byRun) vs \(byToken)"); return }
            checked += 1
        }
        #expect(checked > 2_000)
    }

    /// Each token's `ScanWord` is `SwiftSource.is(_:_:)` of its spelling, for every word.
    @Test func scanWordsAreTheirSpellings() throws {
        var checked = 0
        for s in try Self.sources() {
            let r = SwiftCallReader(s)
            for i in -1...s.tokens.count {
                for (word, bytes) in ScanWord.spellings {
                    let text = String(decoding: bytes, as: UTF8.self)
                    if (r.word(i) == word) != s.is(i, text) { Issue.record("\(s.file) token \(i): \(word) vs is '\(text)'"); return }
                    checked += 1
                }
                if (r.word(i) == .assign) != s.is(i, "=") || (r.word(i) == .question) != s.is(i, "?") { Issue.record("\(s.file) token \(i): = or ?"); return }
            }
        }
        #expect(checked > 100_000)
    }

    /// `ScanNames.index` (a table by length and first byte) is the word `SwiftSource.name` gives.
    @Test func scanNamesAreTheirNames() throws {
        let words = ["CKRecord", "CKQuery", "save", "share", "perRecordCompletionBlock", "fetchedRecordZoneChanges", "a b", "x"]
        let names = ScanNames(words)
        var checked = 0
        for s in try Self.sources() {
            for i in -1...s.tokens.count {
                // `ScanNames` compares bytes, as it always did: a name spelt with other bytes is not its word.
                let bytewise = i >= 0 && s.isName(i) ? words.firstIndex { Array($0.utf8) == Array(s.name(i).utf8) } : nil
                if names.index(s, i) != bytewise { Issue.record("\(s.file) token \(i)"); return }
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    /// The byte search `predicate()` makes of an ASCII text is Foundation's `contains` there.
    @Test func asciiSearchIsFoundationsContains() {
        for t in ["rank > %@", "a", "", "100%", "title == \"x\"", "a\\b", "caf\u{E9} %@", "%\u{301}", "\"\u{301}", "\u{212A}"] {
            let fast = SwiftCallReader.isASCII(t) ? t.utf8.contains(UInt8(ascii: "%")) : t.contains("%")
            #expect(fast == t.contains("%"), "\(t)")
            let quote = SwiftCallReader.isASCII(t) ? t.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) : t.contains("\"") || t.contains("\\")
            #expect(quote == (t.contains("\"") || t.contains("\\")), "\(t)")
        }
    }

    /// Formats that reach the edges of `predicate`'s byte loop: `%` last, `%` before CR LF, `%%`,
    /// `%K` of a name and of a text that is no name, `%@` of a text with a quote, of a non-ASCII
    /// text and of a value not resolved, more `%`s than arguments.
    static let predicateSources = [
        "let k = \"rank\"\nlet q = \"a\\\"b\"\nlet u = \"caf\u{E9}\"\nlet c = \"a b\"\nfunc f(x: Int) {\n"
            + [#""rank > %@", 1"#, #""%K > 1", k"#, #""%K > 1", c"#, #""%K == %@", k, q"#, #""%K == %@", k, u"#, #""a == %@", x"#, #""100%""#,
               #""x %%", k"#, #""%@ %@", k"#, #""%\r\n", k"#, #""%k", k"#, #""title == %@ AND rank > %@", u, NSNumber(value: 1)"#,
               #""%K%K", k, k"#, #""\u{E9} == %@", k"#, #""rank > %@\r\n", k"#, #""%@", "x\"y""#, #""TRUEPREDICATE""#]
            .map { "_ = NSPredicate(format: \($0))\n" }.joined() + "_ = NSPredicate(value: true)\n}\n",
    ]

    /// `predicate`'s byte loop over an ASCII format gives what the loop over `Character`s gives,
    /// at every `(` of every fixture (the calls that are no predicate give nil both ways).
    @Test func asciiPredicateIsTheCharacterLoop() throws {
        var checked = 0, formats = 0
        let extra = Self.predicateSources.enumerated().map { SwiftSource(bytes: Array($0.element.utf8), file: "predicate\($0.offset).swift") }
        for s in try Self.sources() + extra {
            let r = SwiftCallReader(s)
            let g = ScanGlobals()
            g.add(r, index: 0)
            for p in s.tokens.indices where s.is(p, .leftParen) {
                let scope = r.body(at: p)
                let fast = r.predicate(p, scope, g, 0), general = r.predicate(p, scope, g, 0, byCharacter: true)
                if fast != general { Issue.record("\(s.file) token \(p): \(String(describing: fast)) vs \(String(describing: general))"); return }
                if fast != nil { formats += 1 }
                checked += 1
            }
        }
        #expect(checked > 500)
        #expect(formats > 20)
    }

    /// `chain`, which checks a chain before it makes the array, is the loop that appended as it went.
    @Test func chainIsTheAppendingLoop() throws {
        func appending(_ s: SwiftSource, _ k: Int, _ e: Int) -> [Int]? {
            var out: [Int] = []
            var j = s.is(k, .period) ? k + 1 : k
            while j < e {
                guard s.isName(j) else { return nil }
                out.append(j)
                if j + 1 == e { return out }
                guard s.is(j + 1, .period) else { return nil }
                j += 2
            }
            return nil
        }
        var checked = 0, chains = 0
        for s in try Self.sources() {
            let r = SwiftCallReader(s)
            for k in s.tokens.indices {
                for e in k...min(k + 8, s.tokens.count) {
                    let fast = r.chain(k, e)
                    if fast != appending(s, k, e) { Issue.record("\(s.file) \(k)..<\(e)"); return }
                    if fast != nil { chains += 1 }
                    checked += 1
                }
            }
        }
        #expect(checked > 100_000)
        #expect(chains > 1_000)
    }

    /// `firstArgument` is `arguments(p).first`, its label token spelling the label.
    @Test func firstArgumentIsTheListsFirst() throws {
        var checked = 0
        for s in try Self.sources() {
            let r = SwiftCallReader(s)
            for p in -1...s.tokens.count {
                let fast = r.firstArgument(p), listed = p >= 0 && p < s.tokens.count ? r.arguments(p).first : nil
                let same = fast?.start == listed?.start && fast.map { $0.label.map { s.name($0) } } == listed.map { $0.label }
                if !same { Issue.record("\(s.file) token \(p)"); return }
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    /// `table(_:)` (the name's number found by its bytes) is the lookup by `String`, at every
    /// token of every fixture and of sources whose names are not ASCII (a KELVIN SIGN name is
    /// canonically `Key`, a decomposed `é` the composed one), where the bytes must not decide.
    @Test func nameTableByBytesIsByString() throws {
        let extra = [
            "let \u{212A}ey = \"a\"\nlet caf\u{E9} = 1\nfunc f() { _ = Key; _ = cafe\u{301}; _ = caf\u{E9}; let Key = 2; _ = `Key`; _ = \u{212A}ey }",
            "let `a b` = 1\nlet x = 2\nstruct S { static let y = 3; var z = 4 }\nfunc g(p: Int) { let q = p; _ = `x`; _ = x; _ = S.y; _ = q; _ = `a b` }",
        ].enumerated().map { SwiftSource(bytes: Array($0.element.utf8), file: "names\($0.offset).swift") }
        var checked = 0, found = 0
        for s in try Self.sources() + extra {
            let r = SwiftCallReader(s)
            for n in -1...s.tokens.count {
                let fast = r.table(n), general = r.tableByName(n)
                if fast != general { Issue.record("\(s.file) token \(n): \(String(describing: fast)) vs \(String(describing: general))"); return }
                if fast != nil { found += 1 }
                checked += 1
            }
        }
        #expect(checked > 10_000)
        #expect(found > 500)
    }

    /// `SwiftCallReader.strings(_:as:)`, a `compactMap` in the array itself, is the `compactMap`.
    @Test func stringsInPlaceIsCompactMap() {
        var rng = SystemRandomNumberGenerator()
        let pool: [ScanValue] = [.string("a"), .string("b"), .zone("Z"), .zone(nil), .sort("s"), .database(.public), .record(3), .string("caf\u{E9}")]
        for _ in 0..<2_000 {
            let values = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] }
            let general = values.compactMap { if case .string(let v) = $0 { ScanValue.zone(v) } else { nil } }
            #expect(SwiftCallReader.strings(ScanValues(values), as: ScanValue.zone).array == general)
            #expect(SwiftCallReader.strings(ScanValues(values), as: ScanValue.sort).array == values.compactMap { if case .string(let v) = $0 { ScanValue.sort(v) } else { nil } })
        }
    }

    /// `LintContext` parses each predicate text once and checks it once per record type: its
    /// problems and shortfalls are those of parsing and checking every site afresh. Two types
    /// that answer the same text differently, and two spellings, so a cache keyed on less fails.
    @Test func lintContextCachesAreTheDirectAnswers() {
        let a = RecordType(name: "A", fields: [Field(name: "rank", type: FieldType(.int64), indexes: [.queryable, .sortable]),
                                               Field(name: "createdAt", type: FieldType(.timestamp), indexes: [.queryable])],
                           systemIndexes: [.recordName: [.queryable]])
        let b = RecordType(name: "B", fields: [Field(name: "rank", type: FieldType(.string))])
        var schema = Schema(recordTypes: [a, b])
        let texts = ["rank > 3", "rank > %@", "rank == \"x\"", "createdAt > 1", "creationDate > 1", "TRUEPREDICATE", "rank > 1 OR rank < 0", "nope ==", "missing > 1"]
        for (i, text) in (texts + texts + texts).enumerated() {
            var q = DeclaredQuery(recordType: ["B", "A", "Z"][(i + i / texts.count) % 3], sort: i % 2 == 0 ? ["rank"] : [], origin: Origin(CKSchemaModel.SourceLocation(file: "q", line: i + 1, column: 1)))
            q.predicate = text
            q.spelling = i % 4 < 2 ? .cloudKit : .schema
            schema.queries.append(q)
            var sub = Subscription(id: "s\(i)", kind: .query, recordType: i % 2 == 0 ? "A" : "B", predicate: i % 5 == 0 ? nil : text,
                                   origin: Origin(CKSchemaModel.SourceLocation(file: "s", line: i + 1, column: 1)))
            sub.spelling = i % 3 == 0 ? .cloudKit : .schema
            schema.subscriptions.append(sub)
        }
        let context = LintContext(schema)
        let types = context.recordTypesByName
        // Each site parsed and checked afresh.
        var direct: [(QueryPredicateError, CKSchemaModel.SourceLocation?, String)] = []
        for site in PredicateSite.all(in: schema) {
            let text = site.text ?? "TRUEPREDICATE"
            let parsed: QueryPredicate
            do { parsed = try PredicateParser.parse(text, spelling: site.spelling) } catch { direct.append((error, site.start, site.label)); continue }
            guard let t = types[site.recordType] else { continue }
            for e in PredicateChecker.check(parsed, on: t, notation: schema.notation.value) { direct.append((e, site.start, site.label)) }
            if site.isSubscription, parsed.matchesAll, !t.indexes(on: .recordName).contains(.queryable) {
                direct.append((QueryPredicateError(PredicateRules.needsIndex, column: 1, "matches all records: Field 'recordName' is not marked queryable",
                                                   fix: schema.notation.value.queryableRecordName(t) + ", or give the subscription a predicate"), site.start, site.label))
            }
        }
        #expect(context.predicateProblems.count == direct.count)
        for (x, y) in zip(context.predicateProblems, direct) {
            let same = x.0 == y.0 && x.1 == y.1 && x.2 == y.2
            #expect(same)
        }
        #expect(direct.count > 20)
        var shortfalls: [[QueryShortfall]] = []
        for q in schema.queries {
            if let t = types[q.recordType] { shortfalls.append(q.shortfalls(on: t, predicate: false)) } else { shortfalls.append([]) }
        }
        #expect(context.queryShortfalls == shortfalls)
        let someMatchAll = shortfalls.contains { $0.contains(.matchesAll) }
        #expect(someMatchAll)
    }

    /// The lexer's fast paths (a plain string literal read straight to its quote, names and
    /// trivia scanned in a local) give the general paths' tokens and problems, on every fixture
    /// and on strings written for the edges: escapes, interpolations, raw and multi-line
    /// strings, an empty string, unterminated ones, non-ASCII and invalid UTF-8 in them.
    @Test func lexerFastPathsAreTheGeneralPaths() throws {
        var edges: [[UInt8]] = [
            "let a = \"\"; let b = \"x\\\"y\"; let c = \"\\(d)\"; let e = #\"raw\"#; let f = \"\"\"\nmulti\n\"\"\"",
            "let g = \"caf\u{E9}\"; let h = \"open\nlet i = \"tab\there\"", "\"", "x = \"end", "\"\"", "\"\"\"",
            "/* c */ a // d\n  \"s\" `n` ma\u{F1}ana _x1 $0 #if", "f(\"a\", \"b\") + \"\\u{41}\"",
        ].map { Array($0.utf8) }
        edges.append(Array("let s = \"ab".utf8) + [0xFF, 0xFE] + Array("cd\"; let t = \"".utf8) + [0xC3] + Array("\"".utf8))
        edges.append(Array("let n = na".utf8) + [0xE2, 0x82] + Array(" + \"q\"".utf8))
        var checked = 0
        for bytes in try Self.sources().map(\.bytes) + edges {
            let fast = SwiftLexer.tokenize(bytes), general = SwiftLexer.tokenizeByGeneralPaths(bytes)
            #expect(fast.tokens == general.tokens)
            #expect(fast.problems == general.problems)
            checked += fast.tokens.count
        }
        #expect(checked > 10_000)
    }

    /// `ScanNameGroups` (assignments grouped by their name's bytes) groups as a dictionary keyed
    /// by `SwiftSource.name` does: the same names, each with the same entries in order, on every
    /// name token of every fixture and of sources with names that are not ASCII (a KELVIN SIGN
    /// name is canonically `Key`, a decomposed `é` the composed one).
    @Test func nameGroupsAreADictionaryByName() throws {
        let extra = [
            "let Key = 1; let \u{212A}ey = 2; let caf\u{E9} = 3; let cafe\u{301} = 4; let `Key` = 5; let Key = 6",
            "let a = 1; let b = 2; let a = 3; let `a b` = 4; let ab = 5; let a = 6",
        ].enumerated().map { SwiftSource(bytes: Array($0.element.utf8), file: "groups\($0.offset).swift") }
        var checked = 0
        for s in try Self.sources() + extra {
            var groups = ScanNameGroups()
            var byName: [String: [ScanNameGroups.Entry]] = [:]
            for i in s.tokens.indices where s.isName(i) {
                let entry: ScanNameGroups.Entry = (i % 3 - 1, i, i % 5, i % 2 == 0)
                groups.add(s, i, entry)
                byName[s.name(i), default: []].append(entry)
                checked += 1
            }
            #expect(groups.names.count == byName.count)
            #expect(Set(groups.names).count == groups.names.count)
            for (name, list) in zip(groups.names, groups.lists) {
                let expected = byName[name] ?? []
                #expect(list.count == expected.count)
                #expect(zip(list, expected).allSatisfy { $0 == $1 })
            }
        }
        #expect(checked > 5_000)
    }

    /// A reader that keeps its bare names' values (`ScanLookupMemo`) answers as one that finds
    /// them afresh: every name and expression of every fixture, with the globals of all of them,
    /// asked twice (the second time from the memo), with the lookup budget spent alike.
    @Test func lookupMemoIsTheLookupAfresh() throws {
        let sources = try Self.sources()
        let globals = ScanGlobals(), plain = ScanGlobals()
        for (i, s) in sources.enumerated() {
            globals.add(SwiftCallReader(s), index: i)
            plain.add(SwiftCallReader(s, memoizes: false), index: i)
        }
        var checked = 0, named = 0
        for s in sources {
            let kept = SwiftCallReader(s), afresh = SwiftCallReader(s, memoizes: false)
            for _ in 0..<2 {
                for n in s.tokens.indices {
                    if s.isName(n) {
                        for scope in [kept.body(at: n), -2] {
                            let a = kept.name(n, scope, globals, 0), spentA = globals.lookups
                            let b = afresh.name(n, scope, plain, 0), spentB = plain.lookups
                            if a != b || spentA != spentB { Issue.record("\(s.file) token \(n) scope \(scope): \(String(describing: a)) vs \(String(describing: b))"); return }
                            if a != nil { named += 1 }
                            checked += 1
                        }
                    }
                    let a = kept.values(n, kept.body(at: n), globals), b = afresh.values(n, afresh.body(at: n), plain)
                    if a != b { Issue.record("\(s.file) token \(n): values \(String(describing: a)) vs \(String(describing: b))"); return }
                }
            }
        }
        #expect(checked > 10_000)
        #expect(named > 100)
    }

    /// An ASCII file's columns found by distance (`SwiftLineTable.isASCII`) are the scalars
    /// counted, at every byte of every fixture and of texts with CR LF, lone CRs and non-ASCII
    /// bytes (where the count is kept).
    @Test func asciiColumnsAreTheScalarsCounted() throws {
        var texts = try Self.sources().map(\.bytes)
        texts += ["a\r\nbc\rd\n\n e", "caf\u{E9}\nx\u{212A}y\r\nz", "", "\n", "no newline"].map { Array($0.utf8) }
        texts.append([0x61, 0x0A, 0xFF, 0x62, 0x0A, 0xC3])
        var checked = 0, ascii = 0
        for bytes in texts {
            let table = SwiftLineTable(bytes)
            #expect(table.isASCII == bytes.allSatisfy { $0 < 0x80 })
            if table.isASCII { ascii += 1 }
            bytes.withUnsafeBufferPointer { b in
                for offset in 0...bytes.count + 1 {
                    let fast = table.location(of: offset, in: b), counted = table.locationCountingScalars(of: offset, in: b)
                    if fast != counted { Issue.record("offset \(offset): \(fast) vs \(counted)"); return }
                    checked += 1
                }
            }
        }
        #expect(checked > 50_000)
        #expect(ascii > 3)
    }

    /// A name's assignments by function body (one array sorted by body, `NameTable.locals(in:)`)
    /// are the name's assignments in that body in the order found, nested functions included.
    @Test func localsByBodyAreTheAssignmentsInIt() throws {
        let nested = SwiftSource(bytes: Array("func a() { let x = 1; func b() { let x = 2; x = 3 }; x = 4; let y = x }\nfunc c() { let x = 5 }".utf8), file: "nested.swift")
        var checked = 0
        for s in try Self.sources() + [nested] {
            let r = SwiftCallReader(s)
            for (word, list) in r.assignments {
                for body in Set(list.map(\.body)).union([-1, r.bodies.count]) where body >= -1 {
                    let expected = list.filter { $0.body == body && body >= 0 }
                    let found = r.locals(named: word, in: body)
                    if found.count != expected.count || !zip(found, expected).allSatisfy({ $0 == $1 }) { Issue.record("\(s.file) '\(word)' body \(body)"); return }
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }
}
