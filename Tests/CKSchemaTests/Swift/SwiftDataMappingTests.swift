import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaCoreData
@testable import CKSchemaSwift
@testable import CKSchemaLinter
@testable import CKSchemaConfig

/// The three SwiftData fixture apps map to the schema CloudKit would mirror (each held to a
/// `.ckdb` written by hand), and the reader resolves what point 3 of issue 19 lists.
@Suite struct SwiftDataMappingTests {
    static let apps = ["Journal", "Habits", "Pantry"]

    /// A schema's record types as comparable lines: `CD_Entry.CD_title STRING [queryable, ...]`.
    static func lines(_ schema: Schema) -> [String] {
        schema.recordTypes.flatMap { t in
            t.fields.filter { !$0.name.hasPrefix("___") }.map { f in
                "\(t.name).\(f.name) \(f.type)\(f.isEncrypted ? " encrypted" : "") \(f.indexes.sorted { "\($0)" < "\($1)" })"
            }
        }.sorted()
    }

    @Test(arguments: apps)
    func eachAppMapsToItsHandWrittenCKDB(_ app: String) throws {
        let folder = Paths.fixture("swift/apps/\(app)")
        let mapped = try SchemaSource.load(path: folder)
        let expected = try SchemaSource.load(path: folder + "/\(app).ckdb")
        #expect(Self.lines(mapped) == Self.lines(expected))
        #expect(mapped.recordTypes.map(\.name).sorted() == expected.recordTypes.map(\.name).sorted())
        #expect(mapped.recordTypes.allSatisfy { $0.zone == CoreDataMapping.zoneName })
    }

    func model(_ app: String, version: String? = nil) throws -> CoreDataModel {
        try SwiftModelReader.load(path: Paths.fixture("swift/apps/\(app)"), version: version).model
    }

    @Test func relationshipsAndTheirInverses() throws {
        let m = try model("Journal")
        let entry = try #require(m.entity(named: "Entry"))
        let rel = Dictionary(uniqueKeysWithValues: entry.relationships.map { ($0.name, $0) })
        #expect(rel["notebook"]?.inverseName == "entries")            // named on the other side
        #expect(rel["attachments"]?.inverseName == "entry" && rel["attachments"]?.isToMany == true)   // inferred
        #expect(rel["mentions"]?.inverseName == "entries")            // many-to-many, inferred
        let notebook = try #require(m.entity(named: "Notebook"))
        #expect(notebook.relationships.first { $0.name == "entries" }?.deleteRule == .cascade)
        #expect(notebook.relationships.first { $0.name == "parent" }?.inverseName == "children")   // through the typealias Folder
        #expect(m.entity(named: "Ignored") == nil)                    // Pods/ is not read
        #expect(m.language == .swiftData)
    }

    @Test func attributesKeepTheirOptionsAndOrigins() throws {
        let m = try model("Journal")
        let entry = try #require(m.entity(named: "Entry"))
        let a = Dictionary(uniqueKeysWithValues: entry.attributes.map { ($0.name, $0) })
        #expect(a["text"]?.renamingIdentifier == "body")
        #expect(a["secret"]?.allowsCloudEncryption == true)
        #expect(a["photo"]?.type == "Binary")
        #expect(a["spent"]?.type == "Decimal")
        #expect(a["link"]?.type == "URI")
        #expect(a["location"]?.type == "Transformable")
        #expect(a["weather"]?.isOptional == true && a["weather"]?.hasDefault == true)
        #expect(a["isEditing"] == nil && a["summary"] == nil && a["shouting"] == nil && a["sample"] == nil)
        #expect(a["draft"] != nil)                                     // didSet: stored
        #expect(a["title"]?.origin.location?.description == Paths.fixture("swift/apps/Journal/Models/Entry.swift") + ":8:9")
    }

    @Test func theShippedVersionIsTheMigrationPlansHighest() throws {
        let m = try model("Habits")
        #expect(m.versionName == "SchemaV2")
        #expect(m.entities.map(\.name) == ["Habit", "HabitLog", "Category"])
        let v1 = try model("Habits", version: "SchemaV1")
        #expect(v1.entities.first?.uniquenessConstraints.map(\.properties) == [["id"]])
        #expect(throws: InputError.self) { try model("Habits", version: "SchemaV9") }
        let schema = try SchemaSource.load(path: Paths.fixture("swift/apps/Habits"), model: ModelSelection(version: "SchemaV1"))
        #expect(Linter().lint(schema).map(\.code).contains("CK610"))
    }

    @Test func subclassesLandOnTheirRootAndLocalModelsAreLeftOut() throws {
        let m = try model("Pantry")
        #expect(m.entity(named: "Spice")?.parent == "Item")
        #expect(m.entity(named: "SearchHistory") == nil)
        #expect(m.notes.map(\.code).sorted() == ["CK641", "CK643", "CK644"])
        #expect(m.entity(named: "Item")?.attributes.first { $0.name == "price" }?.type == "Double")
    }

    @Test func whatCannotBeToldIsANoteNeverAGuess() throws {
        let text = """
            import SwiftData
            @Model final class A {
                var made = Factory.make()
                @Published var wrapped: Int = 0
                var other: Foreign.Thing?
                var fn: (Int) -> Int = { $0 }
                var kept: String? = nil
                init() {}
            }
            """
        let m = try SwiftModelReader.read([("A.swift", Array(text.utf8))], path: "A.swift")
        #expect(m.entities.first?.attributes.map(\.name) == ["other", "fn", "kept"])
        #expect(m.notes.map(\.message) == [
            "the type of 'A.made' is not written and cannot be told from its initializer; skipped",
            "'wrapped' has the attribute '@Published' (a property wrapper or macro): what it stores is not understood; skipped",
            "'other' has the type 'Foreign.Thing', which the sources do not declare (another module's type?): not understood, assumed bytes",
            "'fn' has the type '(Int) -> Int': not understood, assumed bytes",
        ])
    }

    /// The SwiftData reader takes a script's `#!` first line as the scan does: the lexer skips it.
    @Test func aModelFileMayBeginWithAnInterpreterLine() throws {
        let text = "#!/usr/bin/swift\nimport SwiftData\n@Model final class Note {\n    var title: String = \"\"\n    init() {}\n}\n"
        let m = try SwiftModelReader.read([("Note.swift", Array(text.utf8))], path: "Note.swift")
        #expect(m.entities.map(\.name) == ["Note"])
        #expect(m.entities.first?.attributes.map(\.name) == ["title"])
    }

    @Test func invalidSwiftIsAnInputErrorWithItsPlace() throws {
        do {
            _ = try SwiftModelReader.load(path: Paths.fixture("swift/bad"))
            Issue.record("no error")
        } catch {
            #expect(error.diagnostics.map(\.code) == ["CK640"])
            #expect(error.diagnostics.first?.location?.line == 4)
        }
        #expect(throws: InputError.self) { try SwiftModelReader.read([("E.swift", Array("struct S {}".utf8))], path: "E.swift") }
    }

    @Test func aMillionPropertiesAndDeepNestingStayBounded() throws {
        var text = "@Model final class Big {\n"
        for i in 0..<20_000 { text += "    var p\(i): Int = 0\n" }
        text += "    init() {}\n}\n"
        let m = try SwiftModelReader.read([("Big.swift", Array(text.utf8))], path: "Big.swift")
        #expect(m.entities.first?.attributes.count == 20_000)
        let deep = "@Model final class D { var x: " + String(repeating: "[", count: 5000) + "Int" + String(repeating: "]", count: 5000) + " = [] ; init() {} }"
        let d = try SwiftModelReader.read([("D.swift", Array(deep.utf8))], path: "D.swift")
        #expect(d.entities.first?.attributes.first?.type == "Transformable")
        let braces = String(repeating: "{", count: 100_000)
        #expect(throws: InputError.self) { try SwiftModelReader.read([("B.swift", Array(braces.utf8))], path: "B.swift") }
    }

    /// The real SwiftData apps of ../shared/corpus/swift read, and what their cktool exports
    /// hold covers every CD_ field the reader derives (the exports are supersets: fields of
    /// earlier versions stay in a container).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: SwiftParserCheck.corpus), "../shared/corpus/swift is absent"))
    func theCorpusAppsReadAndTheirExportsCoverTheMapping() throws {
        let root = SwiftParserCheck.corpus + "/swiftdata"
        let apps = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        #expect(apps.count >= 5)
        for app in apps {
            let schema = try SchemaSource.load(path: root + "/" + app)
            #expect(!schema.recordTypes.isEmpty, "\(app)")
        }
        for (app, gold) in [("gomez1112__MoodMargins", "CloudKitSchema.ckdb"), ("martinkearn__wiggle-room", "cloudkit/schema.ckdb")] {
            let mapped = try SchemaSource.load(path: root + "/" + app)
            let export = try SchemaSource.load(path: root + "/" + app + "/" + gold)
            for t in mapped.recordTypes {
                let exported = try #require(export.recordTypes.first { $0.name == t.name }, "\(app): \(t.name)")
                for f in t.fields where !f.mayBeAbsent {
                    let e = exported.fields.first { $0.name == f.name }
                    #expect(e?.type == f.type, "\(app): \(t.name).\(f.name) is \(f.type), exported \(e.map { "\($0.type)" } ?? "absent")")
                }
            }
        }
    }
}

/// `lint`, `diff`, `promote --check`, `import`, `export --format ckdb` and `check` on a Swift
/// folder through the built binary, with exact output and exit codes.
@Suite struct SwiftDataCLITests {
    @Test func lintLocatesEachMirroringRuleInTheSwiftFile() throws {
        let r = try runCLI(["lint", "Tests/Fixtures/swift/lint/Rules.swift"])
        #expect(r.code == 1)
        try expectMatchesFixture(r.stdout + r.stderr, Paths.fixture("swift/lint/Rules.expected"))
    }

    @Test func invalidSwiftIsExit2WithItsLocation() throws {
        let r = try runCLI(["lint", "Tests/Fixtures/swift/bad"])
        #expect(r.code == 2)
        try expectMatchesFixture(r.stderr, Paths.fixture("swift/bad/Unterminated.expected"))
    }

    @Test func diffAndPromoteAgainstTheHandWrittenExport() throws {
        let diff = try runCLI(["diff", "Tests/Fixtures/swift/apps/Journal/Journal.ckdb", "Tests/Fixtures/swift/apps/Journal"])
        #expect(diff.code == 0, "\(diff.stdout)\(diff.stderr)")
        let promote = try runCLI(["promote", "--check", "Tests/Fixtures/swift/apps/Journal/Journal.ckdb", "Tests/Fixtures/swift/apps/Journal"])
        #expect(promote.code == 0, "\(promote.stdout)\(promote.stderr)")
    }

    /// SwiftData sources cannot declare a security role: a role the export has (a public
    /// catalogue's `moderator` beside the mirrored types, as robbiet480/Dispatch's) is no
    /// removal (CK316), as its non-CD_ types are none; a full schema without it still is one.
    @Test func promoteLeavesARoleOfProductionToTheSchemaThatHasIt() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let prod = try read(Paths.fixture("swift/apps/Journal/Journal.ckdb")).replacingOccurrences(of: "DEFINE SCHEMA\n", with: "DEFINE SCHEMA\n\n    CREATE ROLE moderator;\n")
        #expect(prod.contains("CREATE ROLE moderator;"))
        try prod.write(toFile: dir + "/prod.ckdb", atomically: true, encoding: .utf8)
        let r = try runCLI(["promote", "--check", dir + "/prod.ckdb", "Tests/Fixtures/swift/apps/Journal"])
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("CK316"), "\(r.stdout)")
        try "DEFINE SCHEMA\n".write(toFile: dir + "/dev.ckdb", atomically: true, encoding: .utf8)
        let full = try runCLI(["promote", "--check", dir + "/prod.ckdb", dir + "/dev.ckdb"])
        #expect(full.stdout.contains("security role 'moderator' is in production and is removed"), "\(full.stdout)")
    }

    @Test func promoteRefusesARetypedPropertyWithTheModelVersionAdvice() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let prod = try read(Paths.fixture("swift/apps/Journal/Journal.ckdb")).replacingOccurrences(of: "CD_wordCount        INT64", with: "CD_wordCount        STRING")
        try prod.write(toFile: dir + "/prod.ckdb", atomically: true, encoding: .utf8)
        let r = try runCLI(["promote", "--check", dir + "/prod.ckdb", "Tests/Fixtures/swift/apps/Journal"])
        #expect(r.code == 1)
        #expect(r.stdout.contains("[CK630]") && r.stdout.contains("in a new model version keep 'wordCount'"))
        let renamed = try read(Paths.fixture("swift/apps/Journal/Journal.ckdb")).replacingOccurrences(of: "CD_text             STRING", with: "CD_body             STRING")
        try renamed.write(toFile: dir + "/renamed.ckdb", atomically: true, encoding: .utf8)
        let r2 = try runCLI(["promote", "--check", dir + "/renamed.ckdb", "Tests/Fixtures/swift/apps/Journal"])
        #expect(r2.code == 0)
        #expect(r2.stdout.hasPrefix("Tests/Fixtures/swift/apps/Journal/Models/Entry.swift:20:42: warning: 'Entry.text' is renamed from 'body'; CloudKit does not rename, so 'CD_Entry.CD_text' is a new field next to 'CD_body', which keeps the existing values [CK633]\n"), "\(r2.stdout)")
    }

    @Test func importAndExportASwiftFolder() throws {
        let imported = try runCLI(["import", "Tests/Fixtures/swift/apps/Pantry", "-o", "-"])
        #expect(imported.code == 0)
        #expect(imported.stdout.hasPrefix("# Mapped by 'ckschema import' from the SwiftData sources Tests/Fixtures/swift/apps/Pantry.\n"))
        #expect(imported.stdout.contains("CD_heat:"))
        #expect(imported.stderr.contains("Tests/Fixtures/swift/apps/Pantry/Sources/Models.swift:42:21: note: this ModelConfiguration keeps 'SearchHistory' out of CloudKit"))
        let exported = try runCLI(["export", "Tests/Fixtures/swift/apps/Habits", "--format", "ckdb"])
        #expect(exported.code == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("RECORD TYPE CD_Habit"))
        #expect(exported.stdout.contains("CD_reminders"))
    }

    /// `import DIR -o /dev/null` (the benchmark's command) writes into the device: the atomic
    /// write used for files renamed a new regular file over /dev/null when run as root. A file
    /// gets the same text as standard output, header first.
    @Test func importWritesADeviceInPlaceAndAFileWhole() throws {
        let devNull = try runCLI(["import", "Tests/Fixtures/swift/apps/Pantry", "-o", "/dev/null"])
        #expect(devNull.code == 0)
        #expect(devNull.stderr.hasSuffix("wrote /dev/null\n"), "\(devNull.stderr)")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try runCLI(["import", "Tests/Fixtures/swift/apps/Pantry", "-o", dir + "/schema.yaml"])
        let stdout = try runCLI(["import", "Tests/Fixtures/swift/apps/Pantry", "-o", "-"])
        #expect(file.code == 0 && stdout.code == 0)
        #expect(try read(dir + "/schema.yaml") == stdout.stdout)
        #expect(stdout.stdout.hasPrefix("# Mapped by 'ckschema import' from the SwiftData sources Tests/Fixtures/swift/apps/Pantry.\n# The schema NSPersistentCloudKitContainer mirrors (docs/swiftdata.md); fields CloudKit creates\n# only on demand (CD_<attribute>_ckAsset, CD_moveReceipt) are marked onDemand: true.\nckschema: 1\npartial: true\nzones:\n"))
    }

    /// Every `-o` goes through the same writer: a command that writes through `InputFile.write`
    /// (json-schema) keeps /dev/null a device too.
    @Test func everyWriterKeepsADeviceADevice() throws {
        let r = try runCLI(["json-schema", "-o", "/dev/null"])
        #expect(r.code == 0, "\(r.stderr)")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    @Test func checkReadsASwiftFolderNamedInTheConfiguration() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/App/Models", withIntermediateDirectories: true)
        for f in ["Entry.swift", "Notebook.swift", "Weather.swift"] {
            try FileManager.default.copyItem(atPath: Paths.fixture("swift/apps/Journal/Models/" + f), toPath: dir + "/App/Models/" + f)
        }
        try FileManager.default.copyItem(atPath: Paths.fixture("swift/apps/Journal/Journal.ckdb"), toPath: dir + "/production.ckdb")
        try "ckschema: 1\nschemas:\n  development: App/Models\n  production: production.ckdb\n".write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("[CK644]"), "\(r.stdout)")
    }

    // MARK: swiftData.models (issue 19, point 4), validate and migrate new on a Swift folder

    @Test func theModelsListedInTheConfigurationAreTheSchema() throws {
        let r = try runCLI(["export", "--format", "ckdb"], cwd: Paths.fixture("swift/listed/good"))
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout == (try read(Paths.fixture("swift/listed/good/export.expected"))))
        #expect(r.stdout.contains("RECORD TYPE CD_Notebook") && r.stdout.contains("RECORD TYPE CD_Person") && !r.stdout.contains("CD_Entry"))
        let imported = try runCLI(["import", "../../apps/Journal/Models", "-o", "-"], cwd: Paths.fixture("swift/listed/good"))
        #expect(imported.code == 0)
        #expect(imported.stderr == (try read(Paths.fixture("swift/listed/good/import-notes.expected"))))
    }

    @Test func anUnknownListedModelIsExit2AtItsPlaceInTheConfiguration() throws {
        let r = try runCLI(["lint"], cwd: Paths.fixture("swift/listed/unknown"))
        #expect(r.code == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == (try read(Paths.fixture("swift/listed/unknown/lint.expected"))))
    }

    @Test func theConfigurationReadsTheListWithItsPlaces() throws {
        let config = try Configuration.load(path: Paths.fixture("swift/listed/unknown/ckschema.yaml"))
        #expect(config.model?.models?.map(\.name) == ["Notebook", "Notebok", "Weather"])
        #expect(config.model?.models?[1].location.description == Paths.fixture("swift/listed/unknown/ckschema.yaml") + ":6:22")
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "ckschema: 1\nswiftData:\n  models: []\n".write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        #expect(throws: InputError.self) { try Configuration.load(path: dir + "/ckschema.yaml") }
        // Listed models replace the VersionedSchema's choice; a qualified name picks one of two.
        let habits = Paths.fixture("swift/apps/Habits")
        let v1 = try SchemaSource.load(path: habits, model: ModelSelection(models: [ModelName("SchemaV1.Habit", at: SourceLocation(file: "ckschema.yaml", line: 1, column: 1))]))
        #expect(v1.recordTypes.map(\.name) == ["CD_Habit"])
        let here = SourceLocation(file: "ckschema.yaml", line: 1, column: 1)
        // A short name is looked up among the chosen version's models first.
        let chosenFirst = try SwiftModelReader.load(path: habits, version: "SchemaV1", models: [ModelName("Habit", at: here)]).model
        #expect(chosenFirst.entities.map(\.name) == ["Habit"])
        #expect(chosenFirst.entities.first?.uniquenessConstraints.map(\.properties) == [["id"]])   // V1's Habit
        do {
            _ = try SchemaSource.load(path: habits, model: ModelSelection(models: [ModelName("Habbit", at: here)]))
            Issue.record("no error")
        } catch {
            #expect(error.diagnostics.map(\.code) == ["CK646"])
            #expect(error.diagnostics.first?.message.hasSuffix("did you mean 'Habit'?") == true)
        }
    }

    @Test func validateChecksRecordsAgainstASwiftFolder() throws {
        let r = try runCLI(["validate", "--schema", "Tests/Fixtures/swift/apps/Journal", "--env", "production", "Tests/Fixtures/swift/records/journal.ndjson"])
        #expect(r.code == 1)
        #expect(r.stdout == (try read(Paths.fixture("swift/records/journal.ndjson.expected"))))
    }

    @Test func migrateNewWritesTheMigrationsOfASwiftFolder() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/App/Models", withIntermediateDirectories: true)
        for f in ["Entry.swift", "Notebook.swift", "Weather.swift"] {
            try FileManager.default.copyItem(atPath: Paths.fixture("swift/apps/Journal/Models/" + f), toPath: dir + "/App/Models/" + f)
        }
        try "ckschema: 1\nschemas:\n  development: App/Models\n".write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        let first = try runCLI(["migrate", "new", "initial"], cwd: dir)
        #expect(first.code == 0, "\(first.stdout)\(first.stderr)")
        let initial = try read(dir + "/Migrations/0001_initial.yaml")
        #expect(first.stdout.hasPrefix("wrote Migrations/0001_initial.yaml and updated ckschema.sum"), "\(first.stdout)")
        #expect(initial.contains("CD_Entry") && initial.contains("CD_Notebook") && initial.contains("CDMR"))
        let again = try runCLI(["migrate", "new", "nothing"], cwd: dir)
        #expect(again.code == 0)
        #expect(again.stdout.hasPrefix("nothing to migrate"), "\(again.stdout)")
        let notebook = try read(dir + "/App/Models/Notebook.swift").replacingOccurrences(of: "    var name: String = \"Untitled\"\n", with: "    var name: String = \"Untitled\"\n    var colour: String?\n")
        try notebook.write(toFile: dir + "/App/Models/Notebook.swift", atomically: true, encoding: .utf8)
        let added = try runCLI(["migrate", "new", "add_colour"], cwd: dir)
        #expect(added.code == 0, "\(added.stdout)\(added.stderr)")
        let second = try read(dir + "/Migrations/0002_add_colour.yaml")
        #expect(second.contains("CD_colour") && !second.contains("CD_Entry"), "\(second)")
        // Replaying both migrations gives the Swift folder's schema: no drift, both pending.
        let status = try runCLI(["migrate", "status"], cwd: dir)
        #expect(status.code == 0, "\(status.stdout)\(status.stderr)")
        #expect(status.stdout == "development (no store yet):\n  0001_initial     pending\n  0002_add_colour  pending\n")
    }
}
