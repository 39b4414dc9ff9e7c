import Foundation
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

@Suite struct MigrationFileTests {
    static func parse(_ text: String, name: String = "0001_test.yaml") throws -> Migration {
        try Migration.parse(Data(text.utf8), path: "Migrations/" + name)
    }

    @Test func readsEveryStepKind() throws {
        let m = try Self.parse("""
        description: all of them
        steps:
          - addZone: { name: Z, database: private, capabilities: [atomic] }
          - addRole: { name: Editor }
          - addRecordType: { name: T, zone: Z, fields: { a: string, b: { type: int64, indexes: [queryable] } }, grants: { _world: [read] } }
          - addField: { recordType: T, name: c, type: double }
          - addIndex: { recordType: T, field: a, kind: queryable }
          - removeIndex: { recordType: T, field: a, kind: queryable }
          - deprecate: { recordType: T, field: c }
          - setGrants: { recordType: T, grants: { Editor: [read, write] } }
          - removeField: { recordType: T, field: c }
          - removeRecordType: { name: T }
          - backfill: { recordType: T, field: a, value: hello }
          - backfill: { recordType: T, field: b, expression: "length(a) * 2", overwrite: true }
          - copy: { recordType: T, from: b, to: a }
          - addSubscription: { id: s, type: query, database: private, recordType: T, predicate: "a == 'x'", firesOn: [create] }
          - removeSubscription: { id: s }
        """)
        #expect(m.version == 1 && m.name == "test")
        #expect(m.description == "all of them")
        #expect(Set(m.steps.map(\.kindName)) == Set(MigrationStep.kindNames))
        #expect(m.steps.count == 15)
        #expect(m.steps[0].location?.line == 3)
        guard let b = m.steps[11].action as? BackfillStep, b.value == .expression("length(a) * 2"), b.overwrite else { Issue.record("expression backfill"); return }
    }

    @Test func anUnknownStepSuggestsTheClosest() throws {
        let e = try #require(throws: InputError.self) { try Self.parse("steps:\n  - addFeild: { recordType: T, name: x, type: string }\n") }
        #expect(e.diagnostics.count == 1)
        #expect(e.diagnostics[0].code == "CK513")
        #expect(e.diagnostics[0].message == "unknown step 'addFeild'; did you mean 'addField'?")
        #expect(e.diagnostics[0].location == SourceLocation(file: "Migrations/0001_test.yaml", line: 2, column: 5))
    }

    @Test func anUnknownKeyAndAMissingKeyAreReported() throws {
        let e = try #require(throws: InputError.self) {
            try Self.parse("steps:\n  - addIndex: { recordType: T, feild: x, kind: queryable }\n")
        }
        let messages = e.diagnostics.map(\.message)
        #expect(messages.contains("`addIndex` needs `field:`"))
        #expect(messages.contains { $0.hasPrefix("`addIndex` has no key 'feild'") })
        #expect(e.diagnostics.allSatisfy { $0.code == "CK514" })
    }

    @Test func aBadFileNameIsRefused() throws {
        let e = try #require(throws: InputError.self) { try Self.parse("steps: []\n", name: "1_x.yaml") }
        #expect(e.diagnostics[0].code == "CK510")
    }

    @Test func duplicateVersionsAndGapsAreRefused() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        try sb.write("0002_again.yaml", "steps: []\n", hash: false)
        try sb.write("0005_later.yaml", "steps: []\n", hash: false)
        let e = try #require(throws: InputError.self) { try sb.folder() }
        let codes = e.diagnostics.map(\.code)
        #expect(codes.contains("CK511"))
        #expect(codes.contains("CK512"))
        #expect(e.diagnostics.first { $0.code == "CK511" }?.message == "version 2 is used twice: '0002_add_fields.yaml' and '0002_again.yaml'")
        #expect(e.diagnostics.first { $0.code == "CK512" }?.message == "migration numbers skip 3–4: '0005_later.yaml' follows version 2")
    }

    @Test func replayGivesTheFixtureDevelopmentSchema() throws {
        let folder = try MigrationFolder.load(path: Paths.fixture("store/history"))
        let replayed = try folder.replay()
        let dev = try SchemaSource.load(path: Paths.fixture("store/development.yaml"))
        #expect(replayed.storeNormalized == dev.storeNormalized)
        let note = try #require(replayed.recordType(named: "Note"))
        #expect(note.field(named: "title")?.indexes == [.queryable])
        #expect(note.field(named: "secret")?.isDeprecated == true)
        #expect(note.grants.first { $0.role == "Editor" }?.permissions == [.read, .write])
    }

    @Test(arguments: [
        ("steps:\n  - addField: { recordType: Nope, name: x, type: string }\n", "CK515", "record type 'Nope' does not exist"),
        ("steps:\n  - backfill: { recordType: Note, field: views, value: lots }\n", "CK516", "'lots' is not an int64"),
        ("steps:\n  - backfill: { recordType: Note, field: views, expression: \"title || 'x'\" }\n", "CK516", "the expression gives string"),
        ("steps:\n  - backfill: { recordType: Note, field: views, expression: \"lenght(title)\" }\n", "CK516", "did you mean 'length'?"),
        ("steps:\n  - copy: { recordType: Note, from: title, to: views }\n", "CK517", "is not lossless"),
        ("steps:\n  - addIndex: { recordType: Note, field: secret, kind: queryable }\n", "CK105", "is encrypted and cannot be queryable"),
        ("steps:\n  - addField: { recordType: Note, name: pic, type: asset, indexes: [queryable] }\n", "CK104", "cannot be indexed"),
        ("steps:\n  - addZone: { name: Pub, database: public }\n", "CK518", "custom zones exist only in the private database"),
        ("steps:\n  - addField: { recordType: Note, name: title, type: int64 }\n", "CK515", "already has a field 'title'"),
    ])
    func aStepThatCannotApplyIsRefusedWithItsLocation(text: String, code: String, fragment: String) throws {
        let folder = try MigrationFolder.load(path: Paths.fixture("store/history"))
        var schema = try folder.replay()
        let m = try Self.parse(text, name: "0006_bad.yaml")
        let e = try #require(throws: InputError.self) { try SchemaChanger.apply(m, to: &schema) }
        #expect(e.diagnostics[0].code == code)
        #expect(e.diagnostics[0].message.contains(fragment), "\(e.diagnostics[0].message)")
        #expect(e.diagnostics[0].location?.line == 2)
    }
}

@Suite struct SumFileTests {
    @Test func checksumsIgnoreLineEndingsTrailingSpacesCommentsAndKeyOrder() throws {
        let a = try MigrationFileTests.parse("steps:\n  - addField: { recordType: T, name: x, type: string }\n")
        let b = try MigrationFileTests.parse("# a comment\r\nsteps:   \r\n  - addField:\r\n      type: string   \r\n      name: x\r\n      recordType: T\r\n")
        #expect(a.checksum == b.checksum)
        let c = try MigrationFileTests.parse("steps:\n  - addField: { recordType: T, name: y, type: string }\n")
        #expect(a.checksum != c.checksum)
        // A quoted "5" is text, a plain 5 a number: they differ.
        let d = try MigrationFileTests.parse("steps:\n  - backfill: { recordType: T, field: x, value: 5 }\n")
        let e = try MigrationFileTests.parse("steps:\n  - backfill: { recordType: T, field: x, value: '5' }\n")
        #expect(d.checksum != e.checksum)
    }

    @Test func theSumFileCatchesEditedAddedAndRemovedFiles() throws {
        let sb = try MigrationSandbox(fixtureCount: 3)
        defer { sb.cleanup() }
        try sb.folder().verifySum()
        let text = try read(sb.migrations + "/ckschema.sum")
        #expect(text.split(separator: "\n").last?.hasPrefix("folder h1:") == true)

        try sb.write("0003_backfill.yaml", try read(sb.migrations + "/0003_backfill.yaml") + "  - addField: { recordType: Note, name: extra, type: string }\n", hash: false)
        var e = try #require(throws: InputError.self) { try sb.folder().verifySum() }
        #expect(e.diagnostics.map(\.message) == ["'0003_backfill.yaml' has changed since ckschema.sum was written"])

        try sb.hash()
        try sb.write("0004_new.yaml", "steps: []\n", hash: false)
        e = try #require(throws: InputError.self) { try sb.folder().verifySum() }
        #expect(e.diagnostics.map(\.message) == ["'0004_new.yaml' is not in ckschema.sum: it was added without `ckschema migrate hash`"])

        try sb.hash()
        try FileManager.default.removeItem(atPath: sb.migrations + "/0004_new.yaml")
        e = try #require(throws: InputError.self) { try sb.folder().verifySum() }
        #expect(e.diagnostics.map(\.message) == ["'0004_new.yaml' is in ckschema.sum but not in the folder: it was removed or renamed"])
    }

    @Test func aMissingSumFileIsReported() throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        try FileManager.default.removeItem(atPath: sb.migrations + "/ckschema.sum")
        let e = try #require(throws: InputError.self) { try sb.folder().verifySum() }
        #expect(e.diagnostics.map(\.code) == ["CK521"])
        #expect(e.diagnostics[0].fix == "run `ckschema migrate hash` to write it, and commit it with the migrations")
    }

    @Test func aHandEditedSumFileIsCaught() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        let path = sb.migrations + "/ckschema.sum"
        let text = try read(path)
        var lines = text.split(separator: "\n").map(String.init)
        lines[3] = String(lines[3].dropLast()) + (lines[3].hasSuffix("0") ? "1" : "0")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let e = try #require(throws: InputError.self) { try sb.folder().verifySum() }
        #expect(e.diagnostics[0].code == "CK520")
    }

    @Test func twoBranchesThatEachAddAMigrationConflictInGit() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        func git(_ args: String...) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@e", "-c", "init.defaultBranch=main"] + args
            p.currentDirectoryURL = URL(fileURLWithPath: sb.root)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        #expect(try git("init", "-q") == 0)
        #expect(try git("add", "Migrations") == 0)
        #expect(try git("commit", "-qm", "base") == 0)
        #expect(try git("checkout", "-qb", "a") == 0)
        try sb.write("0003_from_a.yaml", "steps:\n  - addRole: { name: A }\n")
        #expect(try git("add", "Migrations") == 0)
        #expect(try git("commit", "-qm", "a") == 0)
        #expect(try git("checkout", "-q", "main") == 0)
        try sb.write("0003_from_b.yaml", "steps:\n  - addRole: { name: B }\n")
        #expect(try git("add", "Migrations") == 0)
        #expect(try git("commit", "-qm", "b") == 0)
        // The files have different names, so only the sum file can make the merge conflict.
        #expect(try git("merge", "-q", "a") != 0)
        #expect(try read(sb.migrations + "/ckschema.sum").contains("<<<<<<<"))
    }
}

/// The step kinds are one list (`MigrationStep.kinds`): every kind is documented, and what
/// `migrate new` writes for it reads back as the same step.
@Suite struct MigrationStepKindTests {
    static let everyKind = """
        steps:
          - addZone: { name: Z, database: private, capabilities: [atomic, fetchChanges] }
          - addRole: { name: Editor }
          - addRecordType: { name: T, zone: Z, description: "a type", requires: [atomic], fields: { a: string, b: { type: int64, indexes: [queryable, sortable] }, r: { type: reference, to: T, action: deleteSelf } }, system: { recordName: [queryable] }, grants: { _world: [read], Editor: [read, write] } }
          - addField: { recordType: T, name: c, type: double, description: "it's \\"quoted\\"" }
          - addIndex: { recordType: T, field: a, kind: queryable }
          - removeIndex: { recordType: T, field: a, kind: queryable }
          - addIndex: { recordType: T, field: createdAt, kind: sortable }
          - deprecate: { recordType: T, field: c }
          - deprecate: { recordType: T }
          - setGrants: { recordType: T, grants: { Editor: [read, write, create] } }
          - removeField: { recordType: T, field: c }
          - backfill: { recordType: T, field: a, value: 'it''s' }
          - backfill: { recordType: T, field: b, expression: "length(a) * 2", overwrite: true }
          - copy: { recordType: T, from: b, to: a }
          - addSubscription: { id: s, type: query, database: private, recordType: T, predicate: "a == 'x'", firesOn: [create, update], desiredKeys: [a] }
          - removeSubscription: { id: s }
          - removeRecordType: { name: T }
        """

    @Test func whatMigrateNewWritesReadsBackAsTheSameSteps() throws {
        let m = try MigrationFileTests.parse(Self.everyKind)
        #expect(Set(m.steps.map(\.kindName)) == Set(MigrationStep.kindNames))
        let written = MigrationWriter.yaml(steps: m.steps, description: nil)
        let again = try MigrationFileTests.parse(written)
        #expect(again.steps == m.steps)
        #expect(again.steps.map(\.summary) == m.steps.map(\.summary))
        // And the replayed schemas agree: the steps mean the same, not only compare equal.
        var a = Schema(), b = Schema()
        try SchemaChanger.apply(m, to: &a)
        try SchemaChanger.apply(again, to: &b)
        #expect(a == b)
    }

    @Test func everyKindIsNamedOnceAndDocumented() throws {
        #expect(Set(MigrationStep.kindNames).count == MigrationStep.kinds.count)
        let doc = try String(contentsOfFile: Paths.root + "/docs/migrations.md", encoding: .utf8)
        for k in MigrationStep.kindNames {
            #expect(doc.contains("| `\(k)` |") || doc.contains("### \(k)\n"), "docs/migrations.md does not document the step `\(k)`")
        }
    }

    @Test func anUnknownKindListsEveryKindFromTheOneList() throws {
        let e = try #require(throws: InputError.self) { try MigrationFileTests.parse("steps:\n  - renameField: { recordType: T }\n") }
        #expect(e.diagnostics.first?.fix == "the steps are " + MigrationStep.kindNames.joined(separator: ", "))
    }
}

extension MigrationStepKindTests {
    /// A key the kind takes is never reported as unknown because another was missing, and a
    /// misspelt key is matched against the kind's keys.
    @Test func aMissingKeyDoesNotMakeThePresentOnesUnknown() throws {
        let e = try #require(throws: InputError.self) {
            try MigrationFileTests.parse("steps:\n  - addSubscription: { type: query, idd: x }\n  - addIndex: { recordType: T, kind: fast }\n")
        }
        let messages = e.diagnostics.map(\.message)
        #expect(messages.contains("`addSubscription` needs `id:`"))
        #expect(messages.contains("`addSubscription` has no key 'idd'; did you mean 'id'?"))
        #expect(messages.contains("`addIndex` needs `field:`"))
        #expect(!messages.contains { $0.contains("no key 'type'") || $0.contains("no key 'kind'") }, "\(messages)")
    }

    /// Every key a kind takes is named in its row of docs/migrations.md.
    @Test func everyKeyIsDocumented() throws {
        let doc = try String(contentsOfFile: Paths.root + "/docs/migrations.md", encoding: .utf8)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for kind in MigrationStep.kinds {
            guard let row = rows.first(where: { $0.hasPrefix("| `\(kind.key)` |") }) else { continue }  // data steps have sections
            for key in kind.keys { #expect(row.contains("`\(key)`"), "docs/migrations.md: `\(kind.key)` does not name `\(key)`") }
        }
    }
}
