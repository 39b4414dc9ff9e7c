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

/// Issue #24, hostile input round two: each defect through the built binary (pull's, defect
/// 9, are in PullTests; the Core Data fixtures in CoreDataInputTests).
@Suite struct HostileInputTests {
    /// A model folder holding `contents`, in a fresh temporary folder.
    static func model(_ contents: [UInt8]) throws -> (dir: String, model: String) {
        let dir = try makeTempDir("ckschema-hostile")
        let model = dir + "/A.xcdatamodel"
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try Data(contents).write(to: URL(fileURLWithPath: model + "/contents"))
        return (dir, model)
    }

    // Defect 1: bytes Foundation's XML parser crashed on.
    @Test func aProcessingInstructionWithoutDataIsRead() throws {
        let (dir, model) = try Self.model(Array("<model><?xcode?></model>\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["lint", model])
        #expect(r.code == 0, "\(r.stderr)")
        let good = try runCLI(["lint", "Tests/Fixtures/coredata/lint/ProcessingInstruction.xcdatamodel"])
        #expect(good.code == 0, "\(good.stderr)")
    }

    @Test func aNameThatIsNotUTF8IsLocated() throws {
        let (dir, model) = try Self.model(Array("<model><entity name=\"N\" ".utf8) + [0xC3, 0x28] + Array("=\"1\"/></model>\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["lint", model])
        #expect(r.code == 2)
        #expect(r.stderr.hasPrefix(model + "/contents:1:25: error: 'contents' is not UTF-8 (byte 0xC3) [CK601]"), "\(r.stderr)")
    }

    // Defect 2: entity amplification is refused before anything expands.
    @Test func entitiesAreRefusedBeforeTheyExpand() throws {
        let big = String(repeating: "a", count: 50_000)
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY e \"\(big)\">]>\n<model>\n"
        let refs = String(repeating: "&e;", count: 20)
        for i in 0..<2_000 { text += "<entity name=\"E\(i)\(refs)\"/>\n" }
        text += "</model>\n"
        let (dir, model) = try Self.model(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["lint", model])
        #expect(r.code == 2)
        #expect(r.stderr.hasPrefix(model + "/contents:2:1: error: 'contents' holds a DTD or entity declaration ('<!')"), "\(r.stderr)")
        // An entity that was never declared is refused too, at its '&'.
        let (dir2, model2) = try Self.model(Array("<model><entity name=\"a&x;\"/></model>\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: dir2) }
        let r2 = try runCLI(["lint", model2])
        #expect(r2.code == 2)
        #expect(r2.stderr.hasPrefix(model2 + "/contents:1:23: error: 'contents' refers to the entity '&x;'"), "\(r2.stderr)")
    }

    @Test func aHugeCurrentVersionFileIsNotRead() throws {
        let dir = try makeTempDir("ckschema-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bundle = dir + "/A.xcdatamodeld"
        try FileManager.default.copyItem(atPath: Paths.fixture("coredata/DoneAndDone.xcdatamodeld"), toPath: bundle)
        try Data(repeating: 0x20, count: 200_000).write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        let r = try runCLI(["lint", bundle])
        #expect(r.code == 2)
        #expect(r.stderr.hasPrefix(bundle + "/.xccurrentversion:1:1: error: .xccurrentversion is 195.3 KB; Xcode writes a few hundred bytes and the limit is 64.0 KB [CK602]"), "\(r.stderr)")
    }

    // Defect 3: every recursion of the predicate parser has the one bound.
    @Test(arguments: [
        "mood IN " + String(repeating: "{", count: 12_000) + "1" + String(repeating: "}", count: 12_000),
        "mood == " + String(repeating: "f(", count: 16_000) + "1" + String(repeating: ")", count: 16_000),
    ])
    func deepOperandsAreRefusedWithTheDepthLimit(predicate: String) throws {
        let sb = try RuntimeSandbox(importRecords: false)
        defer { sb.cleanup() }
        let r = try runCLI(["query", "Note", "--predicate", predicate, "--store", sb.storePath])
        #expect(r.code == 1)
        #expect((r.stdout + r.stderr).contains("the predicate nests deeper than 64 levels [CK700]"), "\(r.stderr.prefix(300))")
    }

    // Defect 6: what the store cannot evaluate is refused when the subscription is linted.
    @Test func aSubscriptionTooLargeForTheStoreIsRefusedByLint() throws {
        let dir = try makeTempDir("ckschema-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let predicate = Array(repeating: "mood > 1", count: 1_200).joined(separator: " AND ")
        let schema = """
            ckschema: 1
            zones:
              Notes: { database: private }
            recordTypes:
              Note:
                zone: Notes
                fields:
                  mood: { type: int64, indexes: [queryable] }
            subscriptions:
              big: { type: query, database: private, recordType: Note, predicate: "\(predicate)", firesOn: [create] }

            """
        try Data(schema.utf8).write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        let r = try runCLI(["lint", dir + "/s.yaml"])
        #expect(r.code == 1)
        #expect(r.stdout.contains("the predicate has more than 500 comparisons and list values, the most the store evaluates in one query [CK700]"), "\(r.stderr)")
    }

    /// A store with the runtime schema, and `lines` imported through the binary.
    static func imported(_ lines: [String]) throws -> (RuntimeSandbox, CLIResult) {
        let sb = try RuntimeSandbox(importRecords: false)
        let file = sb.root + "/in.ndjson"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        return (sb, try runCLI(["records", "import", "--store", sb.storePath, file]))
    }

    static func memo(_ name: String, _ text: String) -> String {
        #"{"recordName":"\#(name)","recordType":"Memo","zoneID":{"zoneName":"Plain"},"fields":{"text":{"value":"\#(text)","type":"STRING"}}}"#
    }

    // Defect 4 (and 6's second case): NUL is kept in names, values and searches.
    @Test func nulBytesAreKeptNotTruncated() throws {
        let (sb, r) = try Self.imported([Self.memo(#"k\u0000one"#, "a"), Self.memo(#"k\u0000two"#, #"x\u0000y"#), Self.memo("m3", "x")])
        defer { sb.cleanup() }
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("saved 3 records"))
        let all = try runCLI(["records", "export", "--store", sb.storePath])
        #expect(all.stdout.split(separator: "\n").count == 3, "\(all.stdout)")
        let x = try runCLI(["query", "Memo", "--predicate", "text == 'x'", "--store", sb.storePath])
        #expect(x.code == 0, "\(x.stderr)")
        #expect(x.stdout.split(separator: "\n").map { $0.contains(#""recordName":"m3""#) } == [true], "\(x.stdout)")
    }

    /// Defect 4, the rest: order, IN, BETWEEN, BEGINSWITH and sorting are exact on strings
    /// that hold a NUL (json_extract reads only up to it, so "x\0a" and "x\0b" both read "x").
    /// Byte order: "x" < "x\0" < "x\0a" < "x\0b" < "y".
    @Test(arguments: [
        ("text < 'x\\0b'", ["x", "x0", "x0a"]),
        ("text <= 'x\\0a'", ["x", "x0", "x0a"]),
        ("text > 'x\\0a'", ["x0b", "y"]),
        ("text >= 'x\\0'", ["x0", "x0a", "x0b", "y"]),
        ("text BETWEEN {'x\\0', 'x\\0a'}", ["x0", "x0a"]),
        ("text IN {'x\\0a', 'y'}", ["x0a", "y"]),
        ("text IN {'x'}", ["x"]),
        ("text BEGINSWITH 'x\\0a'", ["x0a"]),
        ("text BEGINSWITH 'x\\0'", ["x0", "x0a", "x0b"]),
        ("text BEGINSWITH 'x'", ["x", "x0", "x0a", "x0b"]),
    ])
    func comparisonsAreExactPastANul(predicate: String, expected: [String]) throws {
        let (sb, r) = try Self.imported([Self.memo("x0b", #"x\u0000b"#), Self.memo("y", "y"), Self.memo("x0a", #"x\u0000a"#),
                                         Self.memo("x", "x"), Self.memo("x0", #"x\u0000"#)])
        defer { sb.cleanup() }
        #expect(r.code == 0, "\(r.stderr)")
        let q = try runCLI(["query", "Memo", "--predicate", predicate, "--sort", "text", "--store", sb.storePath])
        #expect(q.code == 0, "\(q.stderr)")
        let names = q.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: #""recordName":""#) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        #expect(names == expected, "\(predicate): \(q.stdout)")
    }

    /// A subscription searching for text with a NUL no longer breaks every import.
    @Test func aSubscriptionWithANulDoesNotBlockImports() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        try sb.write("0003_search.yaml", "steps:\n  - addSubscription: { id: s, type: query, database: private, recordType: Note, predicate: \"self CONTAINS 'a\\0b'\", firesOn: [create] }\n")
        let apply = try runCLI(["migrate", "apply", "--store", sb.store], cwd: sb.root)
        #expect(apply.code == 0, "\(apply.stdout)\(apply.stderr)")
        let file = sb.root + "/n.ndjson"
        try Data(#"{"recordName":"a","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"body":{"value":"a b","type":"STRING"}}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let r = try runCLI(["records", "import", "--store", sb.store, file], cwd: sb.root)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
    }

    /// Many subscriptions do not block imports either: one SQL statement returns at most
    /// 2,000 columns, so 2,100 query subscriptions are evaluated in groups, and those of the
    /// last group notify as the first does.
    @Test func twoThousandSubscriptionsDoNotBlockImports() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        let steps = (0..<2_100).map { i in
            "  - addSubscription: { id: s\(i), type: query, database: private, recordType: Note, predicate: \"title == 't\(i)'\", firesOn: [create] }\n"
        }
        try sb.write("0003_many.yaml", "steps:\n" + steps.joined())
        let apply = try runCLI(["migrate", "apply", "--store", sb.store], cwd: sb.root)
        #expect(apply.code == 0, "\(apply.stdout)\(apply.stderr)")
        let file = sb.root + "/n.ndjson"
        let lines = ["t0", "t150", "t2099", "nobody"].map { t in
            #"{"recordName":"\#(t)","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"\#(t)","type":"STRING"}}}"#
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let r = try runCLI(["records", "import", "--store", sb.store, file], cwd: sb.root)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        let n = try runCLI(["notifications", "--store", sb.store], cwd: sb.root)
        let fired = n.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: #""subscriptionID":""#) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        #expect(fired == ["s0", "s150", "s2099"], "\(n.stdout)")
    }

    // Defect 10: BEGINSWITH is exact for every scalar after the prefix.
    @Test func beginsWithMatchesTheLastScalarToo() throws {
        let (sb, r) = try Self.imported([Self.memo("m1", #"buy\udbff\udfffmore"#), Self.memo("m2", "buz")])
        defer { sb.cleanup() }
        #expect(r.code == 0, "\(r.stderr)")
        let q = try runCLI(["query", "Memo", "--predicate", "text BEGINSWITH 'buy'", "--store", sb.storePath])
        #expect(q.stdout.split(separator: "\n").map { $0.contains(#""recordName":"m1""#) } == [true], "\(q.stdout)")
        let n = try runCLI(["notifications", "--store", sb.storePath])
        #expect(n.stdout.contains(#""subscriptionID":"plain-memos""#), "the subscription fires: \(n.stdout)")
    }

    // Defects 8 and 11: duplicate keys and lone surrogates, one decision and one code in
    // validate and records import.
    @Test(arguments: [
        (#"{"recordName":"d","recordType":"Memo","zoneID":{"zoneName":"Plain"},"fields":{"text":{"value":"first","value":"second","type":"STRING"}}}"#,
         "error: record #1: the key 'value' appears twice in one object; give each key once [CK400]"),
        (#"{"recordName":"d","recordType":"Memo","zoneID":{"zoneName":"Plain"},"fields":{"text":{"value":"x","type":"STRING"},"text":{"value":"y","type":"STRING"}}}"#,
         "error: record #1: the key 'text' appears twice in one object; give each key once [CK400]"),
        (Self.memo("s", #"a\ud800b"#),
         "error: record #1: a string holds a lone surrogate escape (\\uD800-\\uDFFF without its pair), which is not text CloudKit can store [CK400]"),
    ])
    func validateAndImportRefuseTheSameLine(line: String, expected: String) throws {
        let (sb, r) = try Self.imported([line])
        defer { sb.cleanup() }
        #expect(r.code == 1)
        let imported = r.stdout.split(separator: "\n").first { $0.hasSuffix(expected) }
        #expect(imported != nil, "\(r.stdout)")
        // validate exits 2 for a line that is not a record's JSON, as for any other (CK400).
        let v = try runCLI(["validate", "--schema", Paths.fixture("runtime/schema.yaml"), sb.root + "/in.ndjson"])
        #expect(v.code == 2)
        #expect(v.stdout.split(separator: "\n").first == imported, "the same located diagnostic: \(v.stdout)")
    }

    // Defect 5: `##[` and `::` from a file never reach a CI log as a command.
    @Test func legacyWorkflowCommandsAreNeutralised() throws {
        let dir = try makeTempDir("ckschema-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let schema = "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      \"t##[stop-commands]tok\": string\n      \"::error::x\": string\n"
        try Data(schema.utf8).write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        for format in ["text", "github"] {
            let r = try runCLI(["lint", "--format", format, dir + "/s.yaml"])
            let all = r.stdout + r.stderr
            #expect(all.contains("t#\\u{23}[stop-commands]tok"), "\(format): \(all)")
            #expect(!all.contains("##["), "\(format): \(all)")
            #expect(!all.contains("'::error"), "\(format): \(all)")
        }
        #expect(ControlCharacters.escaped("a::b ##[x] #[ok] ##") == "a:\\u{3A}b #\\u{23}[x] #[ok] ##")
    }

    // Defect 7: int64 overflow in a backfill rolls the migration back.
    @Test func aBackfillThatOverflowsRollsBack() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: try sb.open(), options: .init())
        try MigrationSandbox.insert(try sb.open(), type: "Note", name: "n1", fields: #"{"title":"T","views":5}"#)
        try sb.write("0003_overflow.yaml", "steps:\n  - backfill: { recordType: Note, field: views, expression: \"views + 9223372036854775807\", overwrite: true }\n")
        let r = try runCLI(["migrate", "apply", "--store", sb.store], cwd: sb.root)
        #expect(r.code == 2, "\(r.stderr)")
        #expect(r.stderr.contains("integer overflow"), "\(r.stderr)")
        let stored = try runCLI(["records", "export", "--store", sb.store], cwd: sb.root)
        #expect(stored.stdout.contains(#""views":{"value":5,"type":"INT64"}"#), "\(stored.stdout)")
    }

    // Smaller: `migrate new` creates Migrations/ for the first migration.
    @Test func migrateNewCreatesTheMigrationsFolder() throws {
        let dir = try makeTempDir("ckschema-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init", dir]).code == 0)
        try? FileManager.default.removeItem(atPath: dir + "/Migrations")
        let r = try runCLI(["migrate", "new", "first"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("wrote Migrations/0001_first.yaml") || r.stdout.contains("nothing to migrate"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir + "/Migrations"))
    }

    // Smaller: CK505's fix names only what `records import` takes.
    @Test func aBusyStoreSaysWhatToDo() throws {
        let (sb, _) = try Self.imported([])
        defer { sb.cleanup() }
        try sb.store.db.run("BEGIN IMMEDIATE", [])
        defer { try? sb.store.db.run("ROLLBACK", []) }
        try Data((Self.memo("b", "x") + "\n").utf8).write(to: URL(fileURLWithPath: sb.root + "/b.ndjson"))
        let r = try runCLI(["records", "import", "--store", sb.storePath, sb.root + "/b.ndjson"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("[CK505]"), "\(r.stderr)")
        #expect(!r.stderr.contains("--lock-timeout"), "\(r.stderr)")
    }

    // Smaller: a symbolic link is followed (docs/security.md), and a diagnostic quotes at
    // most the one token it is about, clipped, never the linked file's lines.
    @Test func aLinkedFileIsFollowedAndQuotedOnlyByItsToken() throws {
        let dir = try makeTempDir("ckschema-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let secret = "token_" + String(repeating: "s3cr3t", count: 40)
        try Data("\(secret) more words here\nsecond line secret2\n".utf8).write(to: URL(fileURLWithPath: dir + "/secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/s.ckdb", withDestinationPath: dir + "/secret.txt")
        let r = try runCLI(["lint", dir + "/s.ckdb"])
        #expect(r.code == 2)
        let all = r.stdout + r.stderr
        #expect(all.contains("s.ckdb:1:1: error: expected DEFINE SCHEMA"), "\(all)")
        #expect(!all.contains(secret), "\(all)")
        #expect(!all.contains("more words here"), "\(all)")
    }
}
