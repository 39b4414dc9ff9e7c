import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaCoreData
@testable import CKSchemaSwift
@testable import CKSchemaConfig

/// Issue 31 points 8-10: the SwiftData and Core Data readers on the shapes real apps write
/// (../shared/corpus/swift), each in a broken and a fixed form under
/// Tests/Fixtures/swift/real, through the built binary with exact output and through the API.
@Suite struct RealAppReaderTests {
    static let folder = Paths.fixture("swift/real")

    struct Case: Sendable, CustomStringConvertible {
        var arguments: [String]
        /// The file stdout must equal; nil: stdout is `stdoutText`.
        var stdout: String?
        var stdoutText = ""
        /// The file stderr must equal; nil: stderr is empty.
        var stderr: String?
        var code: Int32 = 0
        var description: String { arguments.joined(separator: " ") }
    }

    static let passed = "ckschema promote: passed: 0 errors, 0 warnings\n"

    static let cases: [Case] = [
        // 8: a VersionedSchema whose models returns another type's list is followed ...
        Case(arguments: ["import", "8-models-list-good"], stdout: "8-models-list-good.yaml.expected"),
        // ... and when no model is left the message says what the reader found.
        Case(arguments: ["import", "8-models-list-bad"], stderr: "8-models-list-bad.expected", code: 2),
        Case(arguments: ["import", "8-all-local-bad"], stderr: "8-all-local-bad.expected", code: 2),
        // 9: the imported YAML keeps the on-demand fields, marked, and agrees with the sources.
        Case(arguments: ["import", "9-import/Trips"], stdout: "9-import/Trips.yaml"),
        Case(arguments: ["import", "9-import/Notes.xcdatamodel"], stdout: "9-import/Notes.yaml"),
        Case(arguments: ["promote", "--check", "9-import/Trips.ckdb", "9-import/Trips"], stdoutText: passed),
        Case(arguments: ["promote", "--check", "9-import/Trips.ckdb", "9-import/Trips.yaml"], stdoutText: passed),
        Case(arguments: ["promote", "--check", "9-import/Notes.ckdb", "9-import/Notes.xcdatamodel"], stdoutText: passed),
        Case(arguments: ["promote", "--check", "9-import/Notes.ckdb", "9-import/Notes.yaml"], stdoutText: passed),
        // The broken form: a YAML without the on-demand fields (what import wrote before).
        Case(arguments: ["promote", "--check", "9-import/Trips.ckdb", "9-import/Trips-lean.yaml"], stdout: "9-import/Trips-lean.expected", code: 1),
        Case(arguments: ["export", "--format", "ckdb", "9-import/Trips"], stdout: "9-import/Trips.ckdb", stderr: "9-import/Trips.export.expected"),
        Case(arguments: ["export", "--format", "ckdb", "9-import/Trips.yaml"], stdout: "9-import/Trips.ckdb", stderr: "9-import/Trips.yaml.export.expected"),
        Case(arguments: ["export", "--format", "ckdb", "9-import/Notes.xcdatamodel"], stdout: "9-import/Notes.ckdb", stderr: "9-import/Notes.export.expected"),
        Case(arguments: ["export", "--format", "ckdb", "9-import/Notes.yaml"], stdout: "9-import/Notes.ckdb", stderr: "9-import/Notes.yaml.export.expected"),
        // 10: the configuration marked Used with CloudKit is the one mirrored; with none, every
        // entity, and lint says so (CK618).
        Case(arguments: ["import", "10-coredata-good.xcdatamodel"], stdout: "10-coredata-good.expected"),
        Case(arguments: ["import", "10-coredata-bad.xcdatamodel"], stdout: "10-coredata-bad.expected"),
        Case(arguments: ["lint", "10-coredata-bad.xcdatamodel"], stdout: "10-coredata-bad.lint.expected"),
        // A SwiftData store with cloudKitDatabase: .none keeps its models out; a model a
        // synced store names stays in (the offline fallback is .none too).
        Case(arguments: ["import", "10-local-none"], stdout: "10-local-none.yaml.expected", stderr: "10-local-none.expected"),
        Case(arguments: ["import", "10-local-synced"], stdout: "10-local-synced.yaml.expected"),
    ]

    @Test(arguments: cases)
    func eachFormGivesExactlyItsOutput(_ c: Case) throws {
        let r = try runCLI(c.arguments, cwd: Self.folder)
        if let out = c.stdout {
            try expectMatchesFixture(r.stdout, Self.folder + "/" + out)
        } else {
            #expect(r.stdout == c.stdoutText)
        }
        if let err = c.stderr {
            try expectMatchesFixture(r.stderr, Self.folder + "/" + err)
        } else {
            #expect(r.stderr == "")
        }
        #expect(r.code == c.code, "\(r.stderr)")
    }

    // MARK: Through the API

    @Test func aVersionedSchemaThatReturnsAnotherListIsFollowed() throws {
        let model = try SwiftModelReader.load(path: Self.folder + "/8-models-list-good").model
        #expect(model.entities.map(\.name) == ["Trip", "Stop"])
        #expect(model.versionName == "TripsSchemaV1")
    }

    /// The code and message of the first error reading `path` throws, or nil when it reads.
    static func firstError(_ path: String) -> (code: String, message: String)? {
        let result = Swift.Result { () throws(InputError) in try SwiftModelReader.load(path: path) }
        guard case let .failure(error) = result, let d = error.diagnostics.first else { return nil }
        return (d.code, d.message)
    }

    @Test func noModelSaysWhatTheReaderFound() throws {
        let list = try #require(Self.firstError(Self.folder + "/8-models-list-bad"))
        #expect(list.code == SwiftRules.noModel.code)
        #expect(list.message.contains("they declare 2 @Model classes ('TripsSchemaV1.Trip', 'TripsSchemaV1.Stop')"), "\(list.message)")
        #expect(list.message.contains("its models returning 'AppSchema.models', which the reader could not follow"), "\(list.message)")
        let local = try #require(Self.firstError(Self.folder + "/8-all-local-bad"))
        #expect(local.code == SwiftRules.noModel.code)
        #expect(local.message.contains("(cloudKitDatabase: .none) excludes 'Draft', 'Cache'"), "\(local.message)")
    }

    /// The imported YAML reads back with the on-demand fields marked, field for field the
    /// schema the sources (and the model) give.
    @Test(arguments: ["9-import/Trips", "9-import/Notes.xcdatamodel"])
    func theImportedYAMLIsTheSourcesSchema(_ source: String) throws {
        let path = Self.folder + "/" + source
        let yaml = try CoreDataImport.yaml(path: path)
        let imported = try SchemaSource.parseYAML(Data(yaml.utf8), file: "imported.yaml").schema
        let direct = try SchemaSource.load(path: path)
        func lines(_ s: Schema) -> [String] {
            s.recordTypes.flatMap { t in t.fields.map { "\(t.name).\($0.name) \($0.type) \($0.indexes.kinds) \($0.mayBeAbsent ? "onDemand" : "")" } }.sorted()
        }
        #expect(lines(imported) == lines(direct))
        #expect(imported.recordTypes.contains { $0.fields.contains { $0.name == "CD_moveReceipt" && $0.mayBeAbsent } })
        #expect(imported.recordTypes.contains { $0.fields.contains { $0.name.hasSuffix("_ckAsset") && $0.mayBeAbsent } })
    }

    @Test func theConfigurationUsedWithCloudKitIsMirrored() throws {
        let good = try CoreDataReader.load(path: Self.folder + "/10-coredata-good.xcdatamodel")
        #expect(try CoreDataMapping.entities(of: good, configuration: nil).map(\.name) == ["Note"])
        let bad = try CoreDataReader.load(path: Self.folder + "/10-coredata-bad.xcdatamodel")
        #expect(try CoreDataMapping.entities(of: bad, configuration: nil).map(\.name) == ["Note", "ThumbnailCache"])
        #expect(try CoreDataMapping.entities(of: bad, configuration: "Cloud").map(\.name) == ["Note"])
    }

    static let ritualist = URL(fileURLWithPath: Paths.root).deletingLastPathComponent().appendingPathComponent("shared/corpus/swift/swiftdata/vladblajovan__Ritualist").path

    /// Ritualist keeps PersonalityAnalysisModel in a `.none` store over `Schema(localOnlyTypes)`,
    /// named through `ActiveSchemaVersion.PersonalityAnalysisModel`; its offline fallback store is
    /// `.none` over the synced models, which still sync.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ritualist), "needs ../shared/corpus/swift"))
    func ritualistKeepsItsLocalModelOut() throws {
        let schema = try SchemaSource.loadSwiftData(path: Self.ritualist)
        #expect(schema.recordTypes.map(\.name) == ["CD_HabitModel", "CD_HabitLogModel", "CD_HabitCategoryModel", "CD_UserProfileModel", "CD_OnboardingStateModel"])
        let notes = schema.coreDataModel?.notes.filter { $0.code == SwiftRules.excluded.code } ?? []
        #expect(notes.map(\.message) == ["this ModelConfiguration keeps 'PersonalityAnalysisModel' out of CloudKit (cloudKitDatabase: .none); left out of the schema"])
    }

    static let corpusApps = URL(fileURLWithPath: Paths.root).deletingLastPathComponent().appendingPathComponent("shared/corpus/swift/swiftdata").path

    /// The two corpus apps with a cktool export: the imported YAML passes `promote --check`
    /// as the sources do (MoodMargins' 5 and wiggle-room's 4 CK302 were false), and exports
    /// the same `.ckdb`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpusApps), "needs ../shared/corpus/swift"),
          arguments: [("gomez1112__MoodMargins", "CloudKitSchema.ckdb"), ("martinkearn__wiggle-room", "cloudkit/schema.ckdb")])
    func aCorpusAppsImportAgreesWithItsSources(_ app: String, _ gold: String) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sources = Self.corpusApps + "/" + app, export = sources + "/" + gold, yaml = dir + "/imported.yaml"
        #expect(try runCLI(["import", sources, "-o", yaml]).code == 0)
        let fromSources = try runCLI(["promote", "--check", export, sources])
        let fromYAML = try runCLI(["promote", "--check", export, yaml])
        #expect(fromSources.code == 0 && fromYAML.code == 0, "\(fromYAML.stdout)")
        #expect(fromYAML.stdout.hasSuffix(Self.passed) && fromSources.stdout.hasSuffix(Self.passed))
        #expect(!fromYAML.stdout.contains("CK302"))
        let a = try runCLI(["export", "--format", "ckdb", sources]), b = try runCLI(["export", "--format", "ckdb", yaml])
        #expect(a.code == 0 && b.code == 0 && a.stdout == b.stdout)
    }

    @Test func aLocalOnlyConfigurationKeepsItsModelsOut() throws {
        let none = try SchemaSource.loadSwiftData(path: Self.folder + "/10-local-none")
        #expect(none.recordTypes.map(\.name) == ["CD_Note"])
        let synced = try SchemaSource.loadSwiftData(path: Self.folder + "/10-local-synced")
        #expect(synced.recordTypes.map(\.name) == ["CD_Note", "CD_Analysis"])
    }
}
