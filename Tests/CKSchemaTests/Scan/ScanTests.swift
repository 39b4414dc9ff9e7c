import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaScan

/// `ckschema scan`: one fixture per call-site kind, broken and fixed, through the built binary.
@Suite struct ScanTests {
    static let folder = Paths.fixture("scan")
    static let kinds = ["records", "encryption", "cast", "zone", "changes", "delete", "query", "subscription", "database", "suppressed", "creator"]

    @Test(arguments: kinds)
    func brokenVersionIsRefusedAtEachCallSite(kind: String) throws {
        let r = try runCLI(["scan", "kinds/\(kind)-bad.swift", "--schema", "schema.yaml"], cwd: Self.folder)
        try expectMatchesFixture(r.stdout, Self.folder + "/kinds/\(kind)-bad.expected")
        #expect(r.code == (kind == "cast" ? 0 : 1), "\(r.stderr)")
    }

    @Test(arguments: kinds)
    func fixedVersionIsClean(kind: String) throws {
        let r = try runCLI(["scan", "kinds/\(kind)-good.swift", "--schema", "schema.yaml"], cwd: Self.folder)
        #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
        #expect(r.code == 0, "\(r.stderr)")
    }

    @Test func castWarningFailsAtWarning() throws {
        let r = try runCLI(["scan", "kinds/cast-bad.swift", "--schema", "schema.yaml", "--fail-on", "warning"], cwd: Self.folder)
        #expect(r.code == 1)
    }

    /// The default-zone story: query-all without recordName queryable, a sort on an encrypted
    /// field, zone changes from the default zone, the default zone deleted on a keychain reset.
    @Test func defaultZoneStoryIsRefusedAtEachLine() throws {
        let r = try runCLI(["scan", "story-bad", "--schema", "schema.yaml"], cwd: Self.folder)
        try expectMatchesFixture(r.stdout, Self.folder + "/story-bad.expected")
        #expect(r.code == 1)
        for line in [":9:22: error", ":16:21: error: query Entry(sort: body; predicate: TRUEPREDICATE) matches all records", "sorts on 'body'", ":23:62: error", ":27:53: error"] {
            #expect(r.stdout.contains(line), "\(line)")
        }
    }

    @Test func defaultZoneStoryFixedIsClean() throws {
        let r = try runCLI(["scan", "story-good", "--schema", "schema.yaml", "--verbose"], cwd: Self.folder)
        #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
        #expect(r.code == 0)
    }

    @Test func jsonIsTheAppsCloudKitSurface() throws {
        let r = try runCLI(["scan", "story-bad", "--schema", "schema.yaml", "--format", "json"], cwd: Self.folder)
        try expectMatchesFixture(r.stdout, Self.folder + "/story-bad.json.expected")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == CodeSurface.formatVersion)
    }

    @Test func unresolvedCallsAreSilentAndListedWithVerbose() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-verbose-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A zone subscription on a zone passed in (as generated code makes one) watches a zone the
        // scan cannot name, not "no zone" (CK713).
        try "import CloudKit\nfunc make(_ type: String) -> CKRecord {\n    CKRecord(recordType: type)\n}\nfunc watch(_ zone: CKRecordZone) -> CKRecordZoneSubscription {\n    CKRecordZoneSubscription(zoneID: zone.zoneID, subscriptionID: \"changes\")\n}\n"
            .write(toFile: dir + "/App.swift", atomically: true, encoding: .utf8)
        let quiet = try runCLI(["scan", dir, "--schema", Self.folder + "/schema.yaml"])
        #expect(quiet.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
        let verbose = try runCLI(["scan", dir, "--schema", Self.folder + "/schema.yaml", "--verbose"])
        #expect(verbose.stdout.contains("App.swift:3:5: note: not resolved: the record type of CKRecord(recordType:); not checked [CK907]"))
        #expect(verbose.stdout.contains("App.swift:6:5: note: not resolved: the zone of CKRecordZoneSubscription(zoneID:); not checked [CK907]"), "\(verbose.stdout)")
        #expect(verbose.code == 0)
    }

    @Test func developmentAcceptsNewTypesAndFields() throws {
        let r = try runCLI(["scan", "kinds/records-bad.swift", "--schema", "schema.yaml", "--env", "development"], cwd: Self.folder)
        #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
    }

    @Test func aMissingPathCannotBeRead() throws {
        let r = try runCLI(["scan", "nowhere", "--schema", "schema.yaml"], cwd: Self.folder)
        #expect(r.code == 2)
        #expect(r.stdout.contains("nowhere:1:1: error: 'nowhere' does not exist [CK909]"))
    }

    @Test func controlCharactersInTheCodeNeverReachTheTerminalRaw() throws {
        let schema = try SchemaSource.load(path: Self.folder + "/schema.yaml")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-cc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "func f() {\n    let r = CKRecord(recordType: \"Note\")\n    r[\"x\\u{1B}]::error::y\"] = 1\n}\n".write(toFile: dir + "/A.swift", atomically: true, encoding: .utf8)
        let result = CodeScan.run(paths: [dir], schema: schema)
        let d = try #require(result.diagnostics.first)
        #expect(d.code == ScanRules.unknownField.code)
        #expect(!d.message.contains("\u{1B}"))
    }

    @Test func skippedFoldersAreNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-skip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/.build/x", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/Pods", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "".write(toFile: dir + "/.build/x/A.swift", atomically: true, encoding: .utf8)
        try "".write(toFile: dir + "/Pods/B.swift", atomically: true, encoding: .utf8)
        try "".write(toFile: dir + "/C.swift", atomically: true, encoding: .utf8)
        #expect(CodeScan.swiftFiles([dir]).files == [dir + "/C.swift"])
    }
}

extension ScanTests {
    @Test func declaredQueryNotRunIsAVerboseNote() throws {
        let r = try runCLI(["scan", "kinds/cast-good.swift", "--schema", "schema-declared.yaml", "--verbose"], cwd: Self.folder)
        #expect(r.stdout.contains("note: declared query notes-by-text is run by no scanned code; keep it if a server script or another platform runs it [CK908]"), "\(r.stdout)")
        #expect(r.code == 0)
        let quiet = try runCLI(["scan", "kinds/cast-good.swift", "--schema", "schema-declared.yaml"], cwd: Self.folder)
        #expect(quiet.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
    }

    /// Each file is lexed once: a file that names constants or enum cases declared in a file
    /// read after it (Z.swift), or declared twice with different values (M.swift and Z.swift),
    /// is read again at the end, and gives what reading it after every file would.
    @Test func constantsOfLaterFilesAreResolved() throws {
        let r = try runCLI(["scan", "crossfile", "--schema", "schema.yaml", "--verbose"], cwd: Self.folder)
        #expect(r.stdout == (try String(contentsOfFile: Self.folder + "/crossfile.verbose.expected", encoding: .utf8)))
        #expect(r.code == 1)
        let json = try runCLI(["scan", "crossfile", "--schema", "schema.yaml", "--format", "json"], cwd: Self.folder)
        #expect(json.stdout == (try String(contentsOfFile: Self.folder + "/crossfile.json.expected", encoding: .utf8)))
    }

    @Test func aFolderWithoutSwiftCannotBeRead() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("scan-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let e = try runCLI(["scan", empty, "--schema", Self.folder + "/schema.yaml"])
        #expect(e.code == 2)
        #expect(e.stdout.contains("holds no Swift file [CK909]"))
    }
}

/// Issue 31's points 1-7 from real apps: each broken form gives exactly its `.expected`
/// findings, and each fixed form (the false alarm's code, or the miss corrected) its own.
@Suite struct ScanPrecisionTests {
    static let folder = Paths.fixture("scan/precision")

    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var schema = "schema.yaml"
        var options: [String] = []
        /// The `.expected` file; nil when the run is clean.
        var expected: String?
        var code: Int32 = 0
        var description: String { file + (options.isEmpty ? "" : " " + options.joined(separator: " ")) }
    }

    static let cases: [Case] = [
        // 1: CloudKit's keys for the system fields sort by their sortable index; `createdAt` is a custom field.
        Case(file: "1-system-sort-bad.swift", expected: "1-system-sort-bad.expected", code: 1),
        Case(file: "1-system-sort-good.swift"),
        // 1, the predicate side: in a predicate too `createdAt` is a custom field, `creationDate` the system one.
        Case(file: "1-system-predicate-bad.swift", schema: "1-system-predicate.yaml", expected: "1-system-predicate-bad.expected", code: 1),
        Case(file: "1-system-predicate-good.swift", schema: "1-system-predicate.yaml"),
        // 2: a YAML schema that names zones refuses an unknown zone; a .ckdb says nothing about zones.
        Case(file: "2-ckdb-zone-bad.swift", expected: "2-ckdb-zone-bad.expected", code: 1),
        Case(file: "2-ckdb-zone-good.swift", schema: "schema.ckdb"),
        // 3: the default zone is CK713; a protocol's zoneID (and another type's) is not resolved.
        Case(file: "3-zone-unknown-bad.swift", expected: "3-zone-unknown-bad.expected", code: 1),
        Case(file: "3-zone-unknown-good.swift", options: ["--verbose"], expected: "3-zone-unknown-good.verbose.expected"),
        // 4: a database through a computed property or one set in init; a parameter's is null.
        Case(file: "4-database-property-bad.swift", expected: "4-database-property-bad.expected", code: 1),
        Case(file: "4-database-property-good.swift", options: ["--verbose"], expected: "4-database-property-good.verbose.expected"),
        Case(file: "4-database-property-good.swift", options: ["--format", "json"], expected: "4-database-property-good.json.expected"),
        // 5: a predicate assigned in each branch: each is checked.
        Case(file: "5-late-predicate-bad.swift", expected: "5-late-predicate-bad.expected", code: 1),
        Case(file: "5-late-predicate-good.swift"),
        // 6: nested constants and nested string enums resolve.
        Case(file: "6-nested-constants-bad.swift", expected: "6-nested-constants-bad.expected", code: 1),
        Case(file: "6-nested-constants-good.swift", options: ["--verbose"]),
        Case(file: "6-nested-constants-good.swift", options: ["--format", "json"], expected: "6-nested-constants-good.json.expected"),
        // 7: a sort on an encrypted field, at its sort descriptor.
        Case(file: "7-encrypted-sort-bad.swift", expected: "7-encrypted-sort-bad.expected", code: 1),
        Case(file: "7-encrypted-sort-good.swift"),
        // 11: against a .ckdb, the fixes are .ckdb declarations.
        Case(file: "11-ckdb-fixes.swift", schema: "11-ckdb-fixes-bad.ckdb", expected: "11-ckdb-fixes-bad.expected", code: 1),
        Case(file: "11-ckdb-fixes.swift", schema: "11-ckdb-fixes-good.ckdb"),
        // 11: what the code saves and queries is fixed in the code; against a .ckdb no fix says
        // 'zone:', 'recordType:' or 'firesOn:' (a .ckdb has none), and a schema fix is its line.
        Case(file: "11-code-fixes-bad.swift", schema: "11-code-fixes.ckdb", expected: "11-code-fixes-bad.expected", code: 1),
        Case(file: "11-code-fixes-good.swift", schema: "11-code-fixes.ckdb"),
        // The same code against YAML: the zone subscription's fix names 'zones:' as well.
        Case(file: "11-code-fixes-bad.swift", schema: "11-code-fixes.yaml", expected: "11-code-fixes-bad.yaml.expected", code: 1),
        // A script's `#!` first line is no stray '#' (CK640, exit 2); on a later line it still is.
        Case(file: "12-shebang-bad.swift", expected: "12-shebang-bad.expected", code: 2),
        Case(file: "12-shebang-good.swift"),
        Case(file: "12-shebang-good.swift", options: ["--format", "json"], expected: "12-shebang-good.json.expected"),
        // The JSON surface names a system field by the key the code wrote (`creationDate`),
        // never by ckschema's YAML name (`createdAt`, which in app code is a custom field).
        Case(file: "1-system-predicate-good.swift", schema: "1-system-predicate.yaml", options: ["--format", "json"], expected: "1-system-predicate-good.json.expected"),
        Case(file: "1-system-sort-good.swift", options: ["--format", "json"], expected: "1-system-sort-good.json.expected"),
    ]

    /// 11: without a schema (none given, no ckschema.yaml above the folder) the checks that need
    /// none run, the surface is printed, and stderr says what was not checked.
    @Test(arguments: ["11-no-schema-bad", "11-no-schema-good"])
    func withoutASchemaTheChecksThatNeedNoneRun(_ name: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-noschema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.folder + "/\(name).swift", toPath: dir + "/\(name).swift")
        let r = try runCLI(["scan", "\(name).swift"], cwd: dir)
        if name.hasSuffix("bad") {
            try expectMatchesFixture(r.stdout, Self.folder + "/\(name).expected")
            #expect(r.code == 1, "\(r.stderr)")
        } else {
            #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
            #expect(r.code == 0, "\(r.stderr)")
        }
        #expect(!r.stderr.contains("pass both schema paths"))
        #expect(r.stderr.contains("ckschema scan: no schema (--schema, or ckschema.yaml's 'schemas.production'): only the checks that need none ran"), "\(r.stderr)")
        let json = try runCLI(["scan", "\(name).swift", "--format", "json"], cwd: dir)
        try expectMatchesFixture(json.stdout, Self.folder + "/\(name).json.expected")
    }

    @Test(arguments: cases)
    func eachFormGivesExactlyItsFindings(_ c: Case) throws {
        let r = try runCLI(["scan", c.file, "--schema", c.schema] + c.options, cwd: Self.folder)
        if let expected = c.expected {
            try expectMatchesFixture(r.stdout, Self.folder + "/" + expected)
        } else {
            #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
        }
        #expect(r.code == c.code, "\(r.stderr)")
    }

    /// Types nested deeper than a lookup follows, and a name declared more often than it weighs,
    /// are not resolved, and the scan finishes: every lookup is bounded.
    @Test func deepNestingAndManyDeclarationsAreBounded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-bounded-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let depth = 40
        var deep = "import CloudKit\n"
        for i in 0..<depth { deep += "struct T\(i) {\n" }
        deep += "func make() -> CKRecord {\nlet r = CKRecord(recordType: kind)\nreturn r\n}\n"
        deep += String(repeating: "}\n", count: depth)
        deep += "struct Holder {\n" + (0..<300).map { _ in "    static let kind = \"Note\"\n" }.joined() + "}\n"
        deep += "struct Other {\n    static let kind = \"Nope\"\n}\n"
        try deep.write(toFile: dir + "/Deep.swift", atomically: true, encoding: .utf8)
        let r = try runCLI(["scan", dir, "--schema", Self.folder + "/schema.yaml", "--verbose"])
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("not resolved: the record type of CKRecord(recordType:); not checked [CK907]"), "\(r.stdout)")
    }

    /// Declarations that each lead to many declarations, level after level (16^6 paths), are
    /// not followed path by path: one resolution looks up a bounded number of names.
    @Test func fanningDeclarationsAreBounded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scan-fan-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var text = "import CloudKit\n"
        for level in 0..<6 { text += String(repeating: "let x\(level) = x\(level + 1)\n", count: 16) }
        text += String(repeating: "let x6 = \"Note\"\n", count: 16)
        text += "func f() { let r = CKRecord(recordType: x0); r[x0] = 1 }\n"
        try text.write(toFile: dir + "/Fan.swift", atomically: true, encoding: .utf8)
        let start = ContinuousClock.now
        let r = try runCLI(["scan", dir, "--schema", Self.folder + "/schema.yaml", "--verbose"])
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("not resolved: the record type of CKRecord(recordType:); not checked [CK907]"), "\(r.stdout)")
    }
}
