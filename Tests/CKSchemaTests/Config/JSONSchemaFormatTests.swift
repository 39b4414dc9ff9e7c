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

/// `ckschema json-schema`: every example and fixture schema, and every ckschema.yaml, is
/// valid against it under a real JSON Schema validator (Python's `jsonschema`, 2020-12),
/// and typos are refused.
@Suite struct JSONSchemaFormatTests {
    /// python3 with jsonschema, or nil (the test then skips with a note).
    static let python: String? = {
        guard let p = Tool.find("python3"), let r = try? Tool.run(p, ["-c", "import jsonschema"]), r.code == 0 else { return nil }
        return p
    }()

    /// A YAML document as JSON, with YAML 1.2 core scalars (plain `true`, `12`, `null`).
    static func json(_ node: YAMLNode) -> Any {
        switch node.shape {
        case .mapping:
            var d: [String: Any] = [:]
            for p in node.pairs { d[p.key.text] = json(p.value) }
            return d
        case .sequence: return node.items.map(json)
        case .scalar:
            guard node.style == .plain else { return node.text }
            if node.isNull { return NSNull() }
            if node.text == "true" { return true }
            if node.text == "false" { return false }
            if let i = Int(node.text) { return i }
            if let d = Double(node.text), node.text.contains(".") { return d }
            return node.text
        }
    }

    /// Every YAML schema and configuration file of the repository that the tool itself loads.
    static func validFiles() throws -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for base in ["Schemas", "Tests/Fixtures"] {
            guard let e = fm.enumerator(atPath: Paths.root + "/" + base) else { continue }
            for case let rel as String in e where rel.hasSuffix(".yaml") || rel.hasSuffix(".yml") {
                let path = Paths.root + "/" + base + "/" + rel
                if (rel as NSString).lastPathComponent == "ckschema.yaml" {
                    if (try? Configuration.load(path: path)) != nil { out.append(path) }
                } else if (try? SchemaSource.loadYAMLFile(path: path, keepComments: false)) != nil {
                    out.append(path)
                }
            }
        }
        out.append(Paths.root + "/ckschema.yaml")
        return out.sorted()
    }

    /// Validates each JSON instance against the schema; returns the names of the invalid ones.
    static func invalid(_ instances: [String: Any], schema: String, in dir: String) throws -> [String] {
        let python = try #require(python)
        let data = try JSONSerialization.data(withJSONObject: instances, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: dir + "/instances.json"))
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            v = jsonschema.Draft202012Validator(schema)
            for name, doc in sorted(json.load(open(sys.argv[2])).items()):
                if not v.is_valid(doc): print(name)
            """
        let r = try Tool.run(python, ["-c", script, schema, dir + "/instances.json"])
        #expect(r.code == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: python != nil, "python3 with jsonschema is not installed (pip install jsonschema): JSON Schema validation needs a real validator"))
    func everyExampleAndFixtureIsValidAndTyposAreRefused() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["json-schema", "-o", dir + "/ckschema.schema.json"])
        #expect(r.code == 0, "\(r.stderr)")
        // init's own files are examples too.
        let initDir = dir + "/app"
        #expect(try runCLI(["init", initDir]).code == 0)

        var files = try Self.validFiles()
        files += [initDir + "/ckschema.yaml", initDir + "/Schemas/development.yaml"]
        #expect(files.count > 20, "expected the repository's schemas and fixtures, found \(files.count)")
        // The examples of docs/schema-format.md, each YAML block as a file.
        let doc = try read(Paths.root + "/docs/schema-format.md")
        let blocks = doc.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 3, "the complete schema example, the subscriptions example and the ckschema.yaml example")
        for (i, block) in blocks.enumerated() {
            let path = dir + "/schema-format-example-\(i + 1).yaml"
            try Data(block.utf8).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        var instances: [String: Any] = [:]
        for f in files {
            let doc = try YAMLReader.read(path: f)
            guard let root = doc.root else { continue }
            instances[f] = Self.json(root)
        }
        // Typos the schema must refuse, each on a copy of a valid schema.
        let base = try #require(instances[initDir + "/Schemas/development.yaml"] as? [String: Any])
        func mutate(_ change: (inout [String: Any]) -> Void) -> [String: Any] { var d = base; change(&d); return d }
        func noteField(_ d: inout [String: Any], _ key: String, _ value: Any) {
            var types = d["recordTypes"] as! [String: Any]
            var note = types["Note"] as! [String: Any]
            var fields = note["fields"] as! [String: Any]
            var title: [String: Any] = ["type": "string"]
            title[key] = value
            fields["title"] = title
            note["fields"] = fields
            types["Note"] = note
            d["recordTypes"] = types
        }
        let typos: [String: Any] = [
            "typo: unknown top-level key": mutate { $0["recordType"] = [:] },
            "typo: misspelled type": mutate { noteField(&$0, "type", "strng") },
            "typo: misspelled shorthand type": mutate {
                var types = $0["recordTypes"] as! [String: Any]
                var note = types["Note"] as! [String: Any]
                note["fields"] = ["cover": "Asset"]
                types["Note"] = note
                $0["recordTypes"] = types
            },
            "typo: unknown index kind": mutate { noteField(&$0, "indexes", ["queryabel"]) },
            "typo: unknown field key": mutate { noteField(&$0, "encripted", true) },
            "typo: unknown capability": mutate { $0["zones"] = ["Notes": ["capabilities": ["fetchChange"]]] },
            "typo: container without iCloud.": mutate { $0["container"] = "com.example.App" },
            "typo: config key": ["ckschema": 1, "schema": ["development": "a.yaml"]],
        ]
        for (k, v) in typos { instances[k] = v }

        let refused = try Self.invalid(instances, schema: dir + "/ckschema.schema.json", in: dir)
        #expect(refused.sorted() == typos.keys.sorted(), "refused: \(refused)")
    }

    /// Each mapping of the JSON Schema has exactly the keys its decoder accepts.
    @Test func keysAreTheDecodersKeys() throws {
        let r = try runCLI(["json-schema"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let defs = try #require(root["$defs"] as? [String: Any])
        func keys(_ def: String) throws -> [String] {
            var node = try #require(defs[def] as? [String: Any])
            if node["properties"] == nil, let any = node["anyOf"] as? [[String: Any]], let object = any.first(where: { $0["properties"] != nil }) { node = object }
            return try #require(node["properties"] as? [String: Any]).keys.sorted()
        }
        #expect(try keys("schemaFile") == SchemaDecoder.topKeys.sorted())
        #expect(try keys("recordType") == SchemaDecoder.recordTypeKeys.sorted())
        #expect(try keys("field") == SchemaDecoder.fieldKeys.sorted())
        #expect(try keys("query") == SchemaDecoder.queryKeys.sorted())
        #expect(try keys("zone") == SchemaDecoder.zoneKeys.sorted())
        #expect(try keys("configFile") == Configuration.topKeys.sorted())
    }

    /// The copy editors can point at by URL is what the tool prints.
    @Test func theCommittedCopyIsCurrent() throws {
        let r = try runCLI(["json-schema"])
        #expect(r.code == 0)
        #expect(try read(Paths.root + "/docs/ckschema.schema.json") == r.stdout, "run: ckschema json-schema -o docs/ckschema.schema.json")
    }

    @Test func initPointsEditorsAtTheSchema() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init", dir]).code == 0)
        #expect(try read(dir + "/Schemas/development.yaml").hasPrefix("# yaml-language-server: $schema=ckschema.schema.json\n"))
        #expect(try read(dir + "/ckschema.yaml").hasPrefix("# yaml-language-server: $schema=Schemas/ckschema.schema.json\n"))
        #expect(try read(dir + "/Schemas/ckschema.schema.json") == (try runCLI(["json-schema"])).stdout)
    }
}
