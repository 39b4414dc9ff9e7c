import Foundation
import Testing
import CKSchema

/// Paths of the shared corpus of real `.ckdb` files and of this area's fixtures.
enum CKDBPaths {
    static let corpus = URL(fileURLWithPath: Paths.corpus)
    static let fixtures = URL(fileURLWithPath: Paths.fixture("ckdb"))

    static func corpusFile(_ name: String) -> String { corpus.appendingPathComponent(name).path }

    /// The project's own files in the shapes real exports have (Tests/Fixtures/ckdb/real).
    static func realFixture(_ name: String) -> String { fixtures.appendingPathComponent("real/" + name).path }
}

/// Whether `../shared/corpus/ckdb` is beside the repository. A fresh clone has none: the
/// corpus tests then skip with this note and the project's own fixtures cover every feature.
enum Corpus {
    static let available = FileManager.default.fileExists(atPath: Paths.corpus)
    static let skipNote: Comment = "../shared/corpus/ckdb is absent (a fresh clone): the real-export corpus layer is skipped; Tests/Fixtures covers every feature"
}

/// The project's own `.ckdb` fixtures shaped like real exports: always tested.
let ownCKDBFiles = ["minimal.ckdb", "shared-coredata.ckdb", "trailmark-export-v1.ckdb", "trailmark-export-v2.ckdb", "trailmark-export-roles.ckdb"].map(CKDBPaths.realFixture)

/// The own fixtures that are byte-for-byte in cktool's export form (the roles one has
/// cktool's merged grants, `GRANT READ, CREATE, WRITE TO "_icloud"`, and a custom role).
let ownVerbatimExports = ["trailmark-export-v1.ckdb", "trailmark-export-v2.ckdb", "trailmark-export-roles.ckdb"].map(CKDBPaths.realFixture)

/// Every `.ckdb` the corpus-shaped tests run over: the own fixtures, and the corpus when present.
let allCKDBFiles = ownCKDBFiles + (Corpus.available ? corpusFiles.map(CKDBPaths.corpusFile) : [])

/// Every file of the shared corpus. Kept explicit so a missing file fails loudly;
/// `listIsComplete` fails when the corpus gains a file this list does not name.
let corpusFiles = [
    "Kauhik__Visual-Tracker-App__cloudkit-schema.ckdb",
    "ajsutton__moolah-native__CloudKit_schema-prod-baseline.ckdb",
    "ajsutton__moolah-native__CloudKit_schema.ckdb",
    "apple__sample-cloudkit-tooling__CKTool-JS_github-action_schema.ckdb",
    "apple__sample-cloudkit-tooling__CKTool-JS_schema-mgmt_schemas_coins_v1.ckdb",
    "apple__sample-cloudkit-tooling__CKTool-JS_travis-ci_schemas_empty.ckdb",
    "boxed__Done-and-done__cloudkit_schema.ckdb",
    "boyugou__lorvex__cloudkit_schema.ckdb",
    "brightdigit__MistKit__Examples_BushelCloud_schema.ckdb",
    "brightdigit__MistKit__Examples_CelestraCloud_schema.ckdb",
    "brightdigit__MistKit__Examples_MistDemo_schema.ckdb",
    "frasergraham__HexRain__cloudkit_schema.ckdb",
    "nikhilsh__PaperTrail__cloudkit_schema.ckdb",
    "pagoda8__Walking-Buddy__cloudkit-schema.ckdb",
    "robbiet480__Dispatch__CloudKit_schema.ckdb",
]

/// The corpus files that are verbatim `cktool export-schema` output: cktool's layout
/// throughout, no comment. The others are hand-written or edited (comments, two-space or
/// four-space bodies, `// DEPRECATED` notes, no system fields).
let verbatimExports = [
    "ajsutton__moolah-native__CloudKit_schema-prod-baseline.ckdb",
    "apple__sample-cloudkit-tooling__CKTool-JS_github-action_schema.ckdb",
    "apple__sample-cloudkit-tooling__CKTool-JS_schema-mgmt_schemas_coins_v1.ckdb",
    "apple__sample-cloudkit-tooling__CKTool-JS_travis-ci_schemas_empty.ckdb",
    "boxed__Done-and-done__cloudkit_schema.ckdb",
    "frasergraham__HexRain__cloudkit_schema.ckdb",
    "pagoda8__Walking-Buddy__cloudkit-schema.ckdb",
    "robbiet480__Dispatch__CloudKit_schema.ckdb",
].map(CKDBPaths.corpusFile)

/// Verbatim exports to check byte for byte: the own ones, and the corpus's when present.
let allVerbatimExports = ownVerbatimExports + (Corpus.available ? verbatimExports : [])

/// The text with the line breaks at its end counted as one: the only difference allowed
/// between an export and the file it came from (Dispatch's export ends in a blank line,
/// Apple's in one line break; a file that went through an editor or `git` can differ there).
func endingInOneLineBreak(_ text: String) -> String {
    var t = Substring(text)
    while t.hasSuffix("\n") { t = t.dropLast() }
    return t + "\n"
}

@Suite struct CKDBCorpusTests {
    @Test(.enabled(if: Corpus.available, Corpus.skipNote))
    func listIsComplete() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: CKDBPaths.corpus.path)
            .filter { $0.hasSuffix(".ckdb") }.sorted()
        #expect(onDisk == corpusFiles.sorted())
    }

    @Test(arguments: allCKDBFiles)
    func importsWithoutError(file: String) throws {
        let schema = try CKDBParser.read(path: file)
        #expect(!schema.recordTypes.isEmpty)
        for type in schema.recordTypes {
            #expect(type.origin.location?.file == file)
        }
    }

    @Test(arguments: allCKDBFiles)
    func exportParsesBackToTheSameModel(file: String) throws {
        let schema = try CKDBParser.read(path: file)
        let (text, diagnostics) = CKDBExporter.export(schema)
        #expect(!diagnostics.contains(atLeast: .warning))
        let again = try CKDBParser.parse(text, file: "export.ckdb")
        #expect(again == CKDBExporter.cktoolForm(schema))
        // Exporting is a fixed point: the export of the re-import is the same text.
        #expect(CKDBExporter.export(again).text == text)
    }

    @Test(arguments: allVerbatimExports)
    func verbatimExportsComeBackByteForByte(file: String) throws {
        let original = try String(contentsOfFile: file, encoding: .utf8)
        let schema = try CKDBParser.parse(original, file: file)
        let (text, diagnostics) = CKDBExporter.export(schema)
        #expect(diagnostics.isEmpty)
        // Byte for byte: grants merged per role, padding, order, Users as cktool writes them.
        #expect(text == endingInOneLineBreak(original))
    }

    /// import = the canonical YAML of the cktool form; import(export(import(f))) == import(f), byte for byte.
    @Test(arguments: allCKDBFiles)
    func importExportImportGivesTheSameYAML(file: String) throws {
        let imported = CKDBExporter.cktoolForm(try CKDBParser.read(path: file))
        let yaml = imported.canonicalYAML
        let exported = CKDBExporter.export(imported).text
        let again = CKDBExporter.cktoolForm(try CKDBParser.parse(exported, file: "export.ckdb"))
        #expect(again.canonicalYAML == yaml)
        // And the YAML reads back to the same model.
        let fromYAML = try SchemaSource.parseYAML(Data(yaml.utf8), file: "import.yaml").schema
        #expect(fromYAML == imported)
    }

    /// The cktool form changes only order (and adds Users): the same types, fields and grants.
    @Test(arguments: allCKDBFiles)
    func cktoolFormKeepsEverything(file: String) throws {
        let schema = try CKDBParser.read(path: file)
        let form = CKDBExporter.cktoolForm(schema)
        #expect(form.recordTypes.map(\.name).filter { $0 != "Users" || schema.recordType(named: "Users") != nil }
                == schema.recordTypes.map(\.name))
        for type in schema.recordTypes {
            let other = try #require(form.recordType(named: type.name))
            #expect(Set(other.fields) == Set(type.fields))
            #expect(Set(other.grants) == Set(type.grants))
            #expect(other.systemIndexes == type.systemIndexes)
        }
    }

    @Test func dataAndStringEntryPointsAgree() throws {
        for file in allCKDBFiles {
            let data = try #require(FileManager.default.contents(atPath: file))
            let fromData = try CKDBParser.parse(data, file: file)
            let fromText = try CKDBParser.parse(String(decoding: data, as: UTF8.self), file: file)
            #expect(fromData == fromText)
            #expect(CKDBParser.looksLikeCKDB(data))
        }
    }
}
