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

/// The event decoder (the fast path of loading a schema) either gives up or produces
/// exactly what the tree path does: the same model, origins, key lines and multi-line
/// scalar lines. Diagnostics always come from the tree path.
@Suite struct SchemaEventDecoderTests {
    typealias Loaded = (schema: Schema, keyLines: [String: Int], multilineScalarLines: [ClosedRange<Int>])

    /// The tree path alone: `YAMLReader` and `SchemaDecoder.decode`.
    static func treePath(_ data: Data, file: String) throws -> Loaded {
        let doc = try YAMLReader.parse(data, file: file)
        var decoder = SchemaDecoder(file: file)
        let schema = decoder.decode(doc)
        if decoder.d.hasErrors { throw InputError(decoder.d.diagnostics) }
        return (schema, decoder.keyLines, doc.multilineScalarLines)
    }

    /// Every place a schema records where something was written, with its value.
    static func origins(_ s: Schema) -> [String] {
        var out = ["schema \(s.origin)"]
        for t in s.recordTypes {
            out.append("type \(t.name) \(t.origin)")
            // The places of the values too (where CK104-CK109 and CK120 point, and the
            // extent an index fix-it replaces): both paths must record the same ones.
            for f in t.fields {
                out.append("field \(t.name).\(f.name) \(f.origin) type \(f.typeLocation?.description ?? "-") indexes \(f.indexesLocation?.description ?? "-") width \(f.indexesWidth ?? 0) to \(f.referenceTargetLocation?.description ?? "-")")
            }
            for g in t.grants { out.append("grant \(t.name).\(g.role) \(g.origin)") }
            for sf in SystemField.allCases { out.append("system \(t.name).\(sf) \(t.systemIndexOrigin(sf))") }
        }
        for z in s.zones { out.append("zone \(z.name) \(z.origin)") }
        for r in s.roles { out.append("role \(r.name) \(r.origin)") }
        for q in s.queries {
            let names = [q.places.filter, q.places.search, q.places.sort].map { $0.map(\.description).joined(separator: ",") }
            out.append("query \(q.recordType) \(q.origin) \(q.predicateOrigin) \(q.places.recordType) \(names)")
        }
        for sub in s.subscriptions { out.append("subscription \(sub.id) \(sub.origin) \(sub.predicateOrigin)") }
        return out
    }

    /// When the fast path takes a file, both paths agree on everything.
    static func expectSameAsTreePath(_ text: String, file: String = "s.yaml") throws -> Bool {
        let data = Data(text.utf8)
        guard let fast = SchemaEventDecoder.decode(data, file: file) else { return false }
        let tree = try treePath(data, file: file)
        #expect(fast.schema == tree.schema)
        #expect(origins(fast.schema) == origins(tree.schema))
        #expect(fast.keyLines == tree.keyLines)
        #expect(fast.multilineScalarLines == tree.multilineScalarLines)
        return true
    }

    static let files: [String] = {
        var out: [String] = []
        for root in [Paths.root + "/Schemas", Paths.root + "/Tests/Fixtures"] {
            guard let e = FileManager.default.enumerator(atPath: root) else { continue }
            while let rel = e.nextObject() as? String {
                if rel.hasSuffix(".yaml") || rel.hasSuffix(".yml") { out.append(root + "/" + rel) }
            }
        }
        return out.sorted()
    }()

    @Test func thereAreFiles() { #expect(Self.files.count >= 50) }

    /// The files the fast path takes: the case under test, chosen before the test runs so
    /// that no argument passes by returning early.
    static let fastFiles: [String] = files.filter { path in
        (try? InputFile.read(path: path)).flatMap { SchemaEventDecoder.decode($0, file: path) } != nil
    }

    @Test func mostFilesTakeTheFastPath() { #expect(Self.fastFiles.count >= 30, "\(Self.fastFiles.count) of \(Self.files.count)") }

    @Test(arguments: fastFiles)
    func fastPathAgreesWithTheTreePath(path: String) throws {
        let data = try InputFile.read(path: path)
        let fast = try #require(SchemaEventDecoder.decode(data, file: path))
        let tree = try Self.treePath(data, file: path)
        #expect(fast.schema == tree.schema)
        #expect(Self.origins(fast.schema) == Self.origins(tree.schema))
        #expect(fast.keyLines == tree.keyLines)
        #expect(fast.multilineScalarLines == tree.multilineScalarLines)
    }

    /// The files that load without an error, on either path.
    static let loadableFiles: [String] = files.filter { path in
        (try? InputFile.read(path: path)).flatMap { try? SchemaSource.parseYAML($0, file: path) } != nil
    }

    /// Loading for the model alone (`keepComments: false`: lint, check, the testing library)
    /// skips the layout, key lines included, on both paths, and changes nothing in the model.
    @Test(arguments: loadableFiles)
    func theModelAloneIsTheSameModelWithoutItsLayout(path: String) throws {
        let data = try InputFile.read(path: path)
        let full = try SchemaSource.parseYAML(data, file: path)
        let model = try SchemaSource.parseYAML(data, file: path, keepComments: false)
        #expect(model.schema == full.schema)
        #expect(Self.origins(model.schema) == Self.origins(full.schema))
        #expect(model.keyLines.isEmpty && model.comments.isEmpty && model.text.isEmpty)
        // The tree path, asked the same, skips them too.
        var tree = SchemaDecoder(file: path)
        tree.keepsKeyLines = false
        #expect(tree.decode(try YAMLReader.parse(data, file: path)) == full.schema)
        #expect(tree.keyLines.isEmpty)
    }

    /// Both paths still keep the key lines when asked, on a file whose every record type
    /// has them: the switch is not stuck off.
    @Test func keyLinesAreKeptByDefault() throws {
        let path = Paths.root + "/Schemas/development.yaml"
        let data = try InputFile.read(path: path)
        let fast = try #require(SchemaEventDecoder.decode(data, file: path))
        #expect(!fast.keyLines.isEmpty)
        #expect(fast.keyLines == (try Self.treePath(data, file: path)).keyLines)
        #expect(try SchemaSource.parseYAML(data, file: path).keyLines == fast.keyLines)
    }

    /// The fast path must take the files it exists for, or loading silently slows down.
    @Test func typicalSchemasTakeTheFastPath() throws {
        for path in [Paths.root + "/Schemas/development.yaml", Paths.root + "/Schemas/production.yaml"] {
            #expect(SchemaEventDecoder.decode(try InputFile.read(path: path), file: path) != nil, "\(path)")
        }
        let text = """
        # a comment
        ckschema: 1
        container: iCloud.com.example.App
        roles: [Editor]
        zones:
          Main: { database: private, capabilities: [fetchChanges, atomic] }
        recordTypes:
          Empty:
          Note:
            description: |
              A note,
              on two lines.
            zone: Main
            deprecated: false
            requires: fetchChanges
            system:
              recordName: [queryable]
              createdAt: sortable
              modifiedAt: ~
            fields:
              title: { type: string, indexes: [queryable, searchable, sortable] }
              body: { type: string, encrypted: true, description: "the text" }
              "quoted": int64
              count: { type: NUMBER<INT64>, deprecated: True }
              tags:
                type: list<string>
                indexes: queryable
              owner: { type: reference, to: Users, action: deleteSelf, indexes: [queryable] }
              cover: asset
              none: { type: double, indexes: ~ }
            grants:
              _world: [read]
              _creator: read
              Editor: [read, write, create]
              _icloud: ~
        queries:
          - { recordType: Note, filter: [title], sort: [modifiedAt] }
        subscriptions:
          notes: { type: query, database: private, recordType: Note, predicate: "title == 'x'", firesOn: [create] }
        """
        #expect(try Self.expectSameAsTreePath(text))
    }

    /// What it gives up on, the tree path reports or handles (anchors and aliases).
    @Test(arguments: [
        "",
        "ckschema: 1\nrecordTypes:\n  A: {}\n---\nckschema: 1\n",
        "- a\n",
        "ckschema: 2\n",
        "ckschema: '1'\n",
        "recordTypes:\n  A:\n    fields:\n      t: &x string\n      u: *x\n",
        "recordTypes:\n  A:\n    fields:\n      t: string\n      t: int64\n",
        "recordTypes:\n  A:\n    fields:\n      t: { type: string, type: int64 }\n",
        "recordTypes:\n  A:\n    fields:\n      t: { indexes: [queryable] }\n",
        "recordTypes:\n  A:\n    fields:\n      t: { type: string, encrypted: yes }\n",
        "recordTypes:\n  A:\n    fields:\n      t: { type: string, indexes: [queriable] }\n",
        "recordTypes:\n  A:\n    fields:\n      t: { type: strng }\n",
        "recordTypes:\n  A:\n    fields:\n      t: ~\n",
        "recordTypes:\n  A:\n    fields:\n      ? [t]\n      : string\n",
        "recordTypes:\n  A:\n    feilds: {}\n",
        "recordTypes:\n  A:\n    grants:\n      _world: [read, reed]\n",
        "recordTypes:\n  A: x\n",
        "recordTypes:\n  A: {}\n  A: {}\n",
        "zones:\n  Z: { database: privat }\n",
        "recordTypes: [A]\n",
        "recordTypes:\n  A:\n    fields: {\n",
    ])
    func givesUpWhereTheTreePathHasSomethingToSay(text: String) {
        #expect(SchemaEventDecoder.decode(Data(text.utf8), file: "s.yaml") == nil)
    }

    /// Duplicate keys in large mappings (found by sorting) as well as small ones.
    @Test func givesUpOnADuplicateNameInALargeMapping() throws {
        let fields = (0..<20).map { "      f\($0): string\n" }.joined()
        #expect(try Self.expectSameAsTreePath("recordTypes:\n  A:\n    fields:\n" + fields))
        #expect(SchemaEventDecoder.decode(Data(("recordTypes:\n  A:\n    fields:\n" + fields + "      f13: int64\n").utf8), file: "s.yaml") == nil)
        let types = (0..<20).map { "  T\($0): {}\n" }.joined()
        #expect(try Self.expectSameAsTreePath("recordTypes:\n" + types))
        #expect(SchemaEventDecoder.decode(Data(("recordTypes:\n" + types + "  T0: {}\n").utf8), file: "s.yaml") == nil)
        #expect(SchemaEventDecoder.decode(Data("recordTypes:\n  A:\n    grants: { _world: read, _world: [write] }\n".utf8), file: "s.yaml") == nil)
    }

    /// A section left to the tree path counts the levels around it towards the depth limit.
    @Test func nestingInASectionCountsTheEnclosingLevels() throws {
        let depth = YAMLReader.maxDepth
        let text = "zones: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        #expect(SchemaEventDecoder.decode(Data(text.utf8), file: "s.yaml") == nil)
        do {
            _ = try SchemaSource.parseYAML(Data(text.utf8), file: "s.yaml")
            Issue.record("loaded")
        } catch {
            #expect(error.diagnostics.first?.code == InputRules.tooDeep.code)
        }
    }
}
