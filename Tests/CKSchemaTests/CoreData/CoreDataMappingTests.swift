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

/// Loads a fixture model through the schema-source path every command uses.
func coreDataFixture(_ relative: String, _ selection: ModelSelection = ModelSelection()) throws -> Schema {
    try SchemaSource.load(path: Paths.fixture("coredata/" + relative), model: selection)
}

/// One test per line of the mapping in docs/coredata.md, each over its own fixture model.
@Suite struct CoreDataMappingTests {
    @Test func attributeTypesMapAsCloudKitStoresThem() throws {
        let schema = try coreDataFixture("mapping/AttributeTypes.xcdatamodel")
        let t = try #require(schema.recordType(named: "CD_Sample"))
        let expected: [String: PrimitiveType] = [
            "CD_text": .string, "CD_uuid": .string, "CD_link": .string, "CD_small": .int64, "CD_medium": .int64,
            "CD_large": .int64, "CD_flag": .int64, "CD_ratio": .double, "CD_single": .double, "CD_amount": .double,
            "CD_when": .timestamp, "CD_blob": .bytes, "CD_tags": .bytes, "CD_entityName": .string, "CD_moveReceipt": .bytes,
        ]
        for (name, type) in expected { #expect(t.field(named: name)?.type == FieldType(type), "\(name)") }
        #expect(t.field(named: "CD_cache") == nil, "a transient attribute is not mirrored")
    }

    @Test func stringsAreSearchableAndEveryFieldQueryableSortable() throws {
        let t = try #require(try coreDataFixture("mapping/AttributeTypes.xcdatamodel").recordType(named: "CD_Sample"))
        #expect(t.field(named: "CD_text")?.indexes == [.queryable, .searchable, .sortable])
        #expect(t.field(named: "CD_blob")?.indexes == [.queryable, .sortable])
        #expect(t.field(named: "CD_moveReceipt")?.indexes == [.queryable, .sortable])
        #expect(t.field(named: "CD_text_ckAsset")?.indexes == [])
    }

    /// `ckschema import` asks for the schema without the on-demand fields: the same schema as
    /// the full mapping's with its `mayBeAbsent` fields removed, never built at all.
    @Test func onDemandFieldsCanBeLeftOut() throws {
        let full = try coreDataFixture("mapping/AttributeTypes.xcdatamodel")
        let model = try #require(full.coreDataModel)
        let lean = try CoreDataMapping.schema(for: model, onDemandFields: false)
        #expect(lean.recordTypes.map(\.name) == full.recordTypes.map(\.name))
        for (l, f) in zip(lean.recordTypes, full.recordTypes) {
            #expect(l.fields == f.fields.filter { !$0.mayBeAbsent }, "\(l.name)")
            #expect(f.fields.contains { $0.mayBeAbsent }, "the full mapping has on-demand fields in \(f.name)")
        }
    }

    @Test func largeValueTypesHaveOptionalAssetCompanions() throws {
        let t = try #require(try coreDataFixture("mapping/AttributeTypes.xcdatamodel").recordType(named: "CD_Sample"))
        let companions = t.fields.filter { $0.name.hasSuffix("_ckAsset") }
        #expect(Set(companions.map(\.name)) == ["CD_text_ckAsset", "CD_blob_ckAsset", "CD_tags_ckAsset"])
        #expect(companions.allSatisfy { $0.mayBeAbsent && $0.type == FieldType(.asset) })
        #expect(t.field(named: "CD_moveReceipt")?.mayBeAbsent == true)
        #expect(t.field(named: "CD_text")?.mayBeAbsent == false)
    }

    @Test func typesLiveInTheMirroringZoneWithCloudKitsGrants() throws {
        let schema = try coreDataFixture("mapping/Relationships.xcdatamodel")
        #expect(schema.zones.map(\.name) == ["com.apple.coredata.cloudkit.zone"])
        #expect(schema.zones.first?.database == .private)
        #expect(schema.zones.first?.capabilities == [.fetchChanges, .atomic])
        #expect(schema.isPartial)
        for t in schema.recordTypes {
            #expect(t.zone == "com.apple.coredata.cloudkit.zone")
            #expect(t.grants.map { "\($0.role):\($0.sortedPermissions.map(\.rawValue))" } == ["_creator:[\"write\"]", "_icloud:[\"create\"]", "_world:[\"read\"]"])
        }
        #expect(schema.recordType(named: "Users") == nil, "system types are not described by a model")
    }

    @Test func toOneIsARecordNameAndToManyWithToOneInverseIsNoField() throws {
        let schema = try coreDataFixture("mapping/Relationships.xcdatamodel")
        #expect(schema.recordType(named: "CD_Note")?.field(named: "CD_folder")?.type == FieldType(.string))
        #expect(schema.recordType(named: "CD_Folder")?.field(named: "CD_notes") == nil)
        #expect(schema.recordType(named: "CDMR") == nil)
    }

    @Test func manyToManyIsTheCDMRType() throws {
        let schema = try coreDataFixture("mapping/ManyToMany.xcdatamodel")
        let cdmr = try #require(schema.recordType(named: "CDMR"))
        #expect(cdmr.fields.map(\.name) == ["CD_entityNames", "CD_recordNames", "CD_relationships"])
        #expect(schema.recordType(named: "CD_Post")?.field(named: "CD_tags") == nil)
    }

    @Test func subentitiesShareTheRootsRecordType() throws {
        let schema = try coreDataFixture("mapping/Inheritance.xcdatamodel")
        #expect(schema.recordTypes.map(\.name) == ["CD_Post"])
        let post = try #require(schema.recordType(named: "CD_Post"))
        for f in ["CD_entityName", "CD_title", "CD_imageData", "CD_videoURL"] { #expect(post.field(named: f) != nil, "\(f)") }
    }

    @Test func onlyTheCloudKitConfigurationIsMirrored() throws {
        #expect(try coreDataFixture("mapping/Configurations.xcdatamodel").recordTypes.map(\.name) == ["CD_Note"])
        let local = try coreDataFixture("mapping/Configurations.xcdatamodel", ModelSelection(configuration: "Local"))
        #expect(local.recordTypes.map(\.name) == ["CD_Cache"])
        #expect(try coreDataFixture("mapping/Configurations.xcdatamodel", ModelSelection(configuration: "Default")).recordTypes.count == 2)
        #expect(throws: InputError.self) { try coreDataFixture("mapping/Configurations.xcdatamodel", ModelSelection(configuration: "Nope")) }
    }

    @Test func cloudEncryptionMakesAnEncryptedFieldWithoutIndexes() throws {
        let t = try #require(try coreDataFixture("mapping/Encryption.xcdatamodel").recordType(named: "CD_Diary"))
        let secret = try #require(t.field(named: "CD_secret"))
        #expect(secret.isEncrypted && secret.indexes.isEmpty)
        #expect(t.field(named: "CD_mood")?.isEncrypted == false)
        #expect(Linter().lint(try coreDataFixture("mapping/Encryption.xcdatamodel")).isEmpty)
    }

    @Test func everyElementKeepsItsLineAndColumnInContents() throws {
        let schema = try coreDataFixture("mapping/Relationships.xcdatamodel")
        let folder = try #require(schema.recordType(named: "CD_Note")?.field(named: "CD_folder")?.origin.location)
        #expect(folder.file.hasSuffix("mapping/Relationships.xcdatamodel/contents"))
        #expect((folder.line, folder.column) == (5, 9))
        let note = try #require(schema.recordType(named: "CD_Note")?.origin.location)
        #expect((note.line, note.column) == (3, 5))
    }

    @Test func mappedNamesGoThroughCloudKitsNameRule() throws {
        let found = Linter().lint(try coreDataFixture("mapping/LongName.xcdatamodel"))
        #expect(found.contains { $0.code == "CK101" && $0.location?.line == 4 })
    }

    @Test func versionsAreChosenByXccurrentversionOrByName() throws {
        let current = try coreDataFixture("versions/Notes.xcdatamodeld")
        #expect(current.recordType(named: "CD_Notebook") != nil)
        #expect(current.coreDataModel?.versionName == "Notes 2")
        let first = try coreDataFixture("versions/Notes.xcdatamodeld", ModelSelection(version: "Notes"))
        #expect(first.recordType(named: "CD_Folder") != nil)
        #expect(try coreDataFixture("versions/Notes.xcdatamodeld", ModelSelection(version: "Notes.xcdatamodel")).recordType(named: "CD_Folder") != nil)
        #expect(throws: InputError.self) { try coreDataFixture("versions/Notes.xcdatamodeld", ModelSelection(version: "Notes 9")) }
    }
}
