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

@Suite struct ModelTests {
    @Test func fieldTypeSpellingRoundTrips() throws {
        for text in ["string", "int64", "list<string>", "number", "number<int64>", "list<reference>"] {
            let t = try #require(FieldType(parsing: text))
            #expect(t.description == text)
        }
        #expect(FieldType(parsing: "strng") == nil)
        #expect(FieldType(parsing: "number<string>") == nil)
    }

    @Test func originIsNotPartOfEquality() {
        let a = Field(name: "t", type: FieldType(.string), origin: Origin(SourceLocation(file: "a", line: 1, column: 1)))
        let b = Field(name: "t", type: FieldType(.string), origin: Origin(SourceLocation(file: "b", line: 9, column: 3)))
        #expect(a == b)
    }

    /// `Field` packs its properties: each reads back as written, and each takes part in equality.
    @Test func everyFieldPropertyReadsBackAsWritten() {
        var types: [FieldType] = []
        for p in PrimitiveType.allCases {
            types += [FieldType(p), .list(p), FieldType(p, preferred: .int64), FieldType(p, isList: true, preferred: .double)]
        }
        let actions: [ReferenceAction?] = [nil, ReferenceAction.none, .deleteSelf]
        let indexSets: [IndexKinds] = [[], [.queryable], [.searchable, .sortable], [.queryable, .searchable, .sortable]]
        var seen: [Field] = []
        for type in types {
            for action in actions {
                for indexes in indexSets {
                    for flags in 0..<8 {
                        var f = Field(name: "f", type: type, isEncrypted: flags & 1 != 0, indexes: indexes, isDeprecated: flags & 2 != 0,
                                      referenceTarget: flags & 4 != 0 ? "T" : nil, referenceAction: action,
                                      description: flags & 4 != 0 ? nil : "d", origin: Origin(file: "a.yaml", line: 3, column: 5))
                        f.mayBeAbsent = flags == 7
                        #expect(f.type == type && f.referenceAction == action && f.indexes == indexes)
                        #expect(f.isEncrypted == (flags & 1 != 0) && f.isDeprecated == (flags & 2 != 0) && f.mayBeAbsent == (flags == 7))
                        #expect(f.referenceTarget == (flags & 4 != 0 ? "T" : nil) && f.description == (flags & 4 != 0 ? nil : "d"))
                        #expect(f.origin.location == SourceLocation(file: "a.yaml", line: 3, column: 5))
                        seen.append(f)
                    }
                }
            }
        }
        #expect(Set(seen).count == seen.count)
        var g = seen[0]
        g.description = nil
        g.referenceTarget = "U"
        g.type = .list(.reference)
        g.indexes = [.queryable]
        g.referenceAction = .deleteSelf
        #expect(g.description == nil && g.referenceTarget == "U" && g.type == .list(.reference) && g.indexes == [.queryable])
        #expect(g.referenceAction == .deleteSelf && seen[0].referenceTarget == nil && seen[0].description == "d")
        #expect(MemoryLayout<Field>.stride <= 56)
    }
}

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownDigests(input: String, digest: String) {
        #expect(SHA256.hex(input) == digest)
    }
}
