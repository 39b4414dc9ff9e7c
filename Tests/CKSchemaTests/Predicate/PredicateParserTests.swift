import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

/// CloudKit's NSPredicate subset: what parses, and what is refused where, with which code.
@Suite struct PredicateParserTests {
    static let note = RecordType(
        name: "Note",
        fields: [
            Field(name: "title", type: FieldType(.string), indexes: [.queryable, .searchable, .sortable]),
            Field(name: "mood", type: FieldType(.int64), indexes: [.queryable, .sortable]),
            Field(name: "score", type: FieldType(.double), indexes: [.queryable]),
            Field(name: "body", type: FieldType(.string)),
            Field(name: "secret", type: FieldType(.string), isEncrypted: true),
            Field(name: "tags", type: .list(.string), indexes: [.queryable]),
            Field(name: "place", type: FieldType(.location), indexes: [.queryable]),
            Field(name: "due", type: FieldType(.timestamp), indexes: [.queryable]),
            Field(name: "owner", type: FieldType(.reference), indexes: [.queryable]),
            Field(name: "cover", type: FieldType(.asset)),
        ],
        systemIndexes: [.createdAt: [.queryable]])

    @Test func comparisonsAndSpellings() throws {
        let p = try PredicateParser.parse("mood > 3 AND title = 'Hi' && score <= 2.5 AND mood <> 1 AND mood =< 9 AND mood => 0")
        let ops = p.comparisons.map(\.op)
        #expect(ops == [.greater, .equal, .lessOrEqual, .notEqual, .lessOrEqual, .greaterOrEqual])
        #expect(p.comparisons[0].value == .int(3))
        #expect(p.comparisons[1].value == .string("Hi"))
        #expect(p.comparisons[1].keyColumn == 14)
        #expect(p.filterFields == ["mood", "title", "score"])
        #expect(PredicateChecker.check(p, on: Self.note).isEmpty)
    }

    @Test func everyOperatorCloudKitSupports() throws {
        let text = """
            mood BETWEEN {1, 5} AND title IN {'a', "b"} AND title BEGINSWITH 'Tr' AND tags CONTAINS 'x' \
            AND ANY tags == 'y' AND 'z' IN tags AND self CONTAINS 'trail' \
            AND distanceToLocation:fromLocation:(place, {46.5, 7.9}) < 1000 AND NOT mood == 2 \
            AND creationDate > CAST(0, "NSDate") AND owner == 'rec-1' AND NOT title IN {'q'}
            """
        let p = try PredicateParser.parse(text)
        #expect(p.comparisons.map(\.op) == [.between, .in, .beginsWith, .listContains, .listContains, .listContains, .tokenMatch,
                                            .withinDistance, .equal, .greater, .equal, .in])
        #expect(p.comparisons[9].value == .date(978_307_200_000))
        #expect(p.comparisons[9].key == .system(.createdAt, spelled: "creationDate"))
        #expect(p.searchesTokens)
        #expect(PredicateChecker.check(p, on: Self.note).isEmpty)
    }

    @Test func truePredicateMatchesAll() throws {
        #expect(try PredicateParser.parse("TRUEPREDICATE").matchesAll)
        #expect(try !PredicateParser.parse("(mood == 1)").matchesAll)
    }

    @Test func argumentsBindInOrder() throws {
        let p = try PredicateParser.parse("%K == %@ AND due < %@", arguments: [.string("mood"), .int(4), .date(1000)])
        #expect(p.comparisons[0].key == .field("mood"))
        #expect(p.comparisons[0].value == .int(4))
        #expect(p.comparisons[1].value == .date(1000))
        #expect(PredicateChecker.check(p, on: Self.note).isEmpty)
    }

    /// Each refusal: code, 1-based column inside the predicate, and words.
    @Test(arguments: [
        ("mood > 3 OR mood < 1", "CK701", 10, "does not support OR"),
        ("mood > 3 || mood < 1", "CK701", 10, "does not support OR"),
        ("title == 'open", "CK700", 10, "unbalanced quote"),
        ("(mood == 1", "CK700", 1, "unbalanced '('"),
        ("mood ~ 1", "CK700", 6, "unexpected character '~'"),
        ("mood === 1", "CK700", 6, "unknown operator"),
        ("mood 1", "CK700", 6, "expected an operator"),
        ("mood ==", "CK700", 8, "ends where a field or value was expected"),
        ("title ENDSWITH 'x'", "CK701", 7, "ENDSWITH"),
        ("title LIKE 'x*'", "CK701", 7, "LIKE"),
        ("lowercase(title) == 'x'", "CK701", 1, "function 'lowercase'"),
        ("NOT (mood == 1 AND mood == 2)", "CK701", 1, "NOT around an AND"),
        ("NOT self CONTAINS 'x'", "CK701", 1, "tokenized search"),
        ("NOT mood BETWEEN {1, 2}", "CK701", 1, "BETWEEN"),
        ("ALL tags == 'x'", "CK701", 1, "ALL"),
        ("mood == nil", "CK701", 9, "missing value"),
        ("mood == score", "CK701", 1, "another key"),
        ("3 < mood", "CK701", 1, "key on the left"),
        ("owner.name == 'x'", "CK701", 6, "key paths"),
        ("mood == $x", "CK701", 9, "variables"),
        ("mood == %@", "CK700", 9, "has no argument"),
        ("distanceToLocation:fromLocation:(place) < 5", "CK700", 1, "takes 2 arguments"),
        ("title BEGINSWITH[c] 'x'", "CK701", 17, "string options"),
    ])
    func refusals(text: String, code: String, column: Int, words: String) {
        do {
            _ = try PredicateParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.rule.code == code, "\(text): \(error.message)")
            #expect(error.column == column, "\(text): \(error.message)")
            #expect(error.message.contains(words), "\(text): \(error.message)")
        }
    }

    @Test(arguments: [
        ("mood == 'three'", "CK702", 9, "'mood' is int64, and a string cannot be compared with it"),
        ("title == 3", "CK702", 10, "'title' is string, and an integer cannot be compared with it"),
        ("mood BEGINSWITH 'x'", "CK702", 6, "BEGINSWITH is for string fields"),
        ("title CONTAINS 'x'", "CK702", 7, "CONTAINS matches a list field"),
        ("tags == 'x'", "CK702", 6, "CloudKit matches a list with CONTAINS"),
        ("due > 5", "CK702", 7, "'due' is timestamp"),
        ("place == 'x'", "CK702", 1, "compares locations only with distanceToLocation"),
        ("distanceToLocation:fromLocation:(mood, {1, 2}) < 5", "CK702", 34, "needs a location field"),
        ("cover == 'x'", "CK702", 1, "cannot query assets"),
        ("mood IN {1, 'two'}", "CK702", 9, "a string cannot be compared"),
        ("mood BETWEEN {1}", "CK702", 14, "two bounds"),
        ("owner > 'a'", "CK702", 7, "has no order"),
        ("nope == 1", "CK703", 1, "'Note' has no field 'nope'"),
        ("body == 'x'", "CK704", 1, "Field 'body' is not marked queryable"),
        ("secret == 'x'", "CK704", 1, "Field 'secret' is not marked queryable (it is encrypted"),
        ("recordID == 'a'", "CK704", 1, "Field 'recordName' is not marked queryable"),
    ])
    func typeAndIndexProblems(text: String, code: String, column: Int, words: String) throws {
        let p = try PredicateParser.parse(text)
        let problems = PredicateChecker.check(p, on: Self.note)
        #expect(problems.count == 1, "\(problems.map(\.message))")
        let first = try #require(problems.first)
        #expect(first.rule.code == code)
        #expect(first.column == column, "\(first.message)")
        #expect(first.message.contains(words), "\(first.message)")
    }

    @Test func tokenSearchNeedsASearchableField() throws {
        var plain = Self.note
        plain.fields = plain.fields.map { var f = $0; f.indexes.remove(.searchable); return f }
        let problems = PredicateChecker.check(try PredicateParser.parse("self CONTAINS 'x'"), on: plain)
        #expect(problems.map(\.rule.code) == ["CK704"])
        #expect(problems.first?.message.contains("no field of 'Note' is marked searchable") == true)
    }

    @Test func hostileInputFailsFast() {
        let deep = String(repeating: "(", count: 10_000) + "mood == 1" + String(repeating: ")", count: 10_000)
        #expect(throws: QueryPredicateError.self) { try PredicateParser.parse(deep) }
        #expect(throws: QueryPredicateError.self) { try PredicateParser.parse("mood == 1e999") }
        #expect(throws: QueryPredicateError.self) { try PredicateParser.parse("title == 'a\u{1}") }
        #expect(throws: QueryPredicateError.self) { try PredicateParser.parse("") }
        // A control character is named, never echoed raw.
        do { _ = try PredicateParser.parse("mood == \u{1B}[31m") } catch { #expect(error.message.contains("U+1B")) }
    }

    /// Deterministic fuzzing: mutations of valid predicates never crash, and every refusal has a
    /// code of ours and a column inside the text (or just past its end).
    @Test func mutatedPredicatesNeverCrash() {
        var rng = SplitMix64(state: 14)  // shared with CKDBFuzzTests
        let seeds = ["mood > 3 AND title BEGINSWITH 'Tr'", "tags CONTAINS 'x' AND NOT mood IN {1, 2}",
                     "distanceToLocation:fromLocation:(place, {46.5, 7.9}) < 1000", "self CONTAINS \"a b\" AND due > CAST(1, 'NSDate')"]
        let pieces = Array("()'\"{},%@K$!=<>&|.:\\ 09aZ-\u{0}\u{1B}é")
        var refused = 0
        for i in 0..<4000 {
            var chars = Array(seeds[i % seeds.count])
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(chars.count + 1))
                switch rng.next() % 3 {
                case 0: chars.insert(pieces[Int(rng.next() % UInt64(pieces.count))], at: at)
                case 1: if at < chars.count { chars.remove(at: at) }
                default: if at < chars.count { chars[at] = pieces[Int(rng.next() % UInt64(pieces.count))] }
                }
            }
            let text = String(chars)
            do {
                let p = try PredicateParser.parse(text)
                _ = PredicateChecker.check(p, on: Self.note)
            } catch {
                refused += 1
                #expect(error.rule.code.hasPrefix("CK70"))
                #expect(error.column >= 1 && error.column <= text.unicodeScalars.count + 1, "\(text): \(error.column)")
            }
        }
        #expect(refused > 1000)
    }
}

