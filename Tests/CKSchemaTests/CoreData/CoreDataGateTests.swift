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

let doneModel = "Tests/Fixtures/coredata/DoneAndDone.xcdatamodeld"
let doneExport = "Tests/Fixtures/coredata/DoneAndDone-export.ckdb"
/// The optional fields the model has and the export's container never received.
let neverWritten = """
    record type CD_TodoItem
      + CD_TodoItem.CD_notes string [queryable, searchable, sortable]

    record type CD_TodoList
      + CD_TodoList.CD_archivedAt timestamp [queryable, sortable]

    """

/// The gate between an export and a model, on the project's own fixtures (always runs).
@Suite struct CoreDataGateTests {
    @Test func diffListsExactlyTheFieldsNeverWritten() throws {
        let result = try runCLI(["diff", doneExport, doneModel])
        #expect(result.code == 0)
        #expect(result.stdout == neverWritten)
    }

    @Test func companionsAndMoveReceiptsNeverDiffer() throws {
        // The export has CD_text_ckAsset, and CD_TodoList has no CD_moveReceipt: neither is a change.
        let diff = SchemaDiff.compute(from: try SchemaSource.load(path: Paths.root + "/" + doneExport),
                                      to: try coreDataFixture("DoneAndDone.xcdatamodeld", ModelSelection(version: "DoneAndDone")))
        #expect(diff.isEmpty, "\(diff.text)")
    }

    @Test func promoteCheckExportToModelPassesAndTheReverseFails() throws {
        let forward = try runCLI(["promote", "--check", doneExport, doneModel])
        #expect(forward.code == 0)
        #expect(forward.stdout == "ckschema promote: passed: 0 errors, 0 warnings\n")
        let reverse = try runCLI(["promote", "--check", doneModel, doneExport])
        #expect(reverse.code == 1)
        #expect(reverse.stdout.contains("field 'CD_TodoItem.CD_notes' is in production and cannot be deleted [CK302]"))
    }

    /// A model says nothing about indexes: against a container built by
    /// initializeCloudKitSchema (no index on any CD_ field, only ___recordID QUERYABLE) the
    /// gate reports no index added or removed, in either direction (issue 25: 93 warnings,
    /// CK311 and CK310, against a real export before).
    @Test func indexesOnCDFieldsComeFromTheOtherSide() throws {
        let initialized = "Tests/Fixtures/coredata/DoneAndDone-initialized-export.ckdb"
        for (from, to) in [(initialized, doneModel), (doneModel, initialized)] {
            let check = try runCLI(["promote", "--check", from, to])
            #expect(check.code == 0)
            #expect(check.stdout == "ckschema promote: passed: 0 errors, 0 warnings\n")
            let diff = try runCLI(["diff", from, to])
            #expect(diff.code == 0)
            #expect(diff.stdout == "no changes\n")
        }
        // The export that saving records built has every index: no change either.
        let saved = try runCLI(["promote", doneExport, doneModel])
        #expect(!saved.stdout.contains("[CK310]") && !saved.stdout.contains("[CK311]"), "\(saved.stdout)")
    }

    /// Indexes are still compared where the model is not the source: two `.ckdb` files.
    @Test func indexesOnCDFieldsOfTwoExportsStillDiffer() throws {
        let diff = try runCLI(["diff", doneExport, "Tests/Fixtures/coredata/DoneAndDone-initialized-export.ckdb"])
        #expect(diff.stdout.contains("- index CD_TodoItem.CD_text searchable"))
        #expect(diff.stdout.contains("+ index CD_TodoItem.recordName queryable"))
    }

    @Test func thePlanSaysJustInTimeFieldsMustBeDeployedFirst() throws {
        let plan = try runCLI(["promote", doneExport, doneModel])
        #expect(plan.code == 0)
        #expect(plan.stdout.contains("contents:8:9: note: adds field 'CD_TodoItem.CD_notes'"))
        #expect(plan.stdout.contains("production refuses to create it [CK632]"))
        #expect(plan.stdout.contains("then deploy the schema to production"))
    }

    @Test func modelVersionsGoThroughTheProductionRules() throws {
        let v1 = "Tests/Fixtures/coredata/versions/Notes.xcdatamodeld/Notes.xcdatamodel"
        let v2 = "Tests/Fixtures/coredata/versions/Notes.xcdatamodeld"
        let result = try runCLI(["promote", "--check", v1, v2])
        #expect(result.code == 1)
        #expect(result.stdout.contains("error: field 'CD_Note.CD_rating' is int64 in production; the model's attribute 'rating' now maps to string, and production cannot change a field's type [CK630]"))
        #expect(result.stdout.contains("keep 'rating' with its old type, add a new attribute (for example 'ratingV2')"))
        #expect(result.stdout.contains("warning: entity 'Notebook' is renamed from 'Folder'; CloudKit does not rename, so 'CD_Notebook' is a new record type next to 'CD_Folder', which keeps the existing records [CK633]"))
        let diff = try runCLI(["diff", v1, v2])
        #expect(diff.stdout.contains("= record type CD_Folder not described by the model; stays in production"))
        #expect(diff.stdout.contains("= CD_Note.CD_legacyFlag int64 [queryable, sortable] not described by the model; stays in production"))
        #expect(!diff.stdout.contains("- "), "nothing a model stops describing is called removed")
        #expect(!diff.stdout.contains("CD_Notebook.CD_name_ckAsset"), "on-demand fields are not part of a new type")
    }

    @Test func importWritesTheMappedSchemaWithItsOrigin() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/development.yaml"
        let result = try runCLI(["import", doneModel, "-o", out, "--model-version", "DoneAndDone"])
        #expect(result.code == 0)
        let yaml = try read(out)
        #expect(yaml.hasPrefix("# Mapped by 'ckschema import' from the Core Data model \(doneModel), version 'DoneAndDone'.\n"))
        // The on-demand fields are kept, marked (issue 31 point 9), and the schema says it is partial.
        #expect(yaml.contains("      CD_text_ckAsset: { type: asset, onDemand: true }\n") && yaml.contains("CD_moveReceipt: { type: bytes, indexes: [queryable, sortable], onDemand: true }"), "on-demand fields are kept, marked")
        #expect(yaml.contains("\nckschema: 1\npartial: true\n"))
        let back = try SchemaSource.load(path: out)
        #expect(back.recordType(named: "CD_TodoItem")?.field(named: "CD_list")?.type == FieldType(.string))
        #expect(back.isPartial && back.recordType(named: "CD_TodoItem")?.field(named: "CD_moveReceipt")?.mayBeAbsent == true)
        #expect(Linter().lint(back).isEmpty)
    }

    @Test func everySchemaCommandTakesAModel() throws {
        #expect(try runCLI(["lint", doneModel]).code == 0)
        let export = try runCLI(["export", doneModel, "--format", "ckdb"])
        #expect(export.code == 0)
        #expect(export.stdout.contains("RECORD TYPE CD_TodoItem ("))
        #expect(try runCLI(["export", doneModel, "--format", "jsonschema"]).code == 0)
        let local = try runCLI(["export", "Tests/Fixtures/coredata/mapping/Configurations.xcdatamodel", "--format", "yaml", "--configuration", "Local"])
        #expect(local.code == 0 && local.stdout.contains("CD_Cache:") && !local.stdout.contains("CD_Note:"))
        let unknown = try runCLI(["lint", "Tests/Fixtures/coredata/mapping/Configurations.xcdatamodel", "--configuration", "Nope"])
        #expect(unknown.code == 2 && unknown.stderr.contains("the model has no configuration 'Nope'; it has 'Cloud', 'Local' [CK605]"))
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let records = dir + "/records.ndjson"
        try Data(#"{"recordName":"CD_TodoItem_1","recordType":"CD_TodoItem","zoneID":{"zoneName":"com.apple.coredata.cloudkit.zone"},"fields":{"CD_text":{"value":"milk","type":"STRING"},"CD_entityName":{"value":"TodoItem","type":"STRING"}}}"#.utf8 + [10]).write(to: URL(fileURLWithPath: records))
        let validate = try runCLI(["validate", "--schema", doneModel, "--model-version", "DoneAndDone", records])
        #expect(validate.code == 0, "\(validate.stdout)\(validate.stderr)")
    }

    @Test func ckschemaYAMLNamesAModelAndItsVersion() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            ckschema: 1
            schemas:
              production: \(Paths.root)/\(doneExport)
              development: \(Paths.root)/\(doneModel)
            coreData:
              modelVersion: DoneAndDone
            check: [lint, promote]

            """.write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        let check = try runCLI(["check"], cwd: dir)
        #expect(check.code == 0, "\(check.stdout)")
        let diff = try runCLI(["diff"], cwd: dir)
        #expect(diff.stdout == "no changes\n", "version 1 is what the export's container has")
        let newer = try runCLI(["diff", "--model-version", "DoneAndDone 2"], cwd: dir)
        #expect(newer.stdout == neverWritten)
    }
}

/// The same "Done when" against the real export in ../shared (absent in a fresh clone).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: Paths.corpus + "/boxed__Done-and-done__cloudkit_schema.ckdb"),
                "needs ../shared/corpus/ckdb (not in a fresh clone); CoreDataGateTests covers the same on Tests/Fixtures"))
struct CoreDataCorpusTests {
    static let export = Paths.corpus + "/boxed__Done-and-done__cloudkit_schema.ckdb"

    @Test func realExportAndModelDifferByTheFieldsNeverWritten() throws {
        let result = try runCLI(["diff", Self.export, doneModel])
        #expect(result.code == 0)
        #expect(result.stdout == neverWritten)
    }

    @Test func promoteCheckRealExportToModelPassesAndTheReverseFails() throws {
        #expect(try runCLI(["promote", "--check", Self.export, doneModel]).code == 0)
        #expect(try runCLI(["promote", "--check", doneModel, Self.export]).code == 1)
    }

    @Test func theOlderVersionIsExactlyWhatTheContainerHas() throws {
        let diff = try runCLI(["diff", Self.export, doneModel, "--model-version", "DoneAndDone"])
        #expect(diff.code == 0 && diff.stdout == "no changes\n", "\(diff.stdout)")
    }
}
