import Foundation
import FuzzDriver
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

/// The YAML schema loader, then every lint rule over what it loaded. Any input may be
/// refused with diagnostics; none may crash, hang or exhaust memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLLint(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    agreeOnTheFastPath(data)
    guard let file = try? SchemaSource.parseYAML(data, file: "fuzz.yaml") else { return 0 }
    let findings = Linter().lint(file.schema)
    // Rendering escapes what the file held (defect 6): exercise it too.
    _ = DiagnosticRenderer(format: .text, command: "lint").render(findings)
    _ = DiagnosticRenderer(format: .github, command: "lint").render(findings)
    return 0
}

/// Where the event decoder (the fast path of loading) takes a file, the tree path must load
/// it too, without a word, into the same model, origins (a field's value places included), key
/// lines and multi-line scalar lines.
func agreeOnTheFastPath(_ data: Data) {
    guard let fast = SchemaEventDecoder.decode(data, file: "fuzz.yaml") else { return }
    guard let doc = try? YAMLReader.parse(data, file: "fuzz.yaml") else { fatalError("the fast path took a file YAMLReader refuses") }
    var decoder = SchemaDecoder(file: "fuzz.yaml")
    let schema = decoder.decode(doc)
    precondition(decoder.d.diagnostics.isEmpty, "the fast path took a file with diagnostics: \(decoder.d.diagnostics)")
    precondition(fast.schema == schema, "the two paths disagree on the model")
    precondition(fast.keyLines == decoder.keyLines && fast.multilineScalarLines == doc.multilineScalarLines, "the two paths disagree on lines")
    func origins(_ s: Schema) -> [String] {
        s.recordTypes.flatMap { t in
            // A field's value places too (where CK104-CK109 and CK120 point, and what an index
            // fix-it replaces).
            ["\(t.origin)"] + t.fields.map { "\($0.origin) \(String(describing: $0.typeLocation)) \(String(describing: $0.indexesLocation)) \(String(describing: $0.indexesWidth)) \(String(describing: $0.referenceTargetLocation))" }
                + t.grants.map { "\($0.origin)" }
                + SystemField.allCases.map { "\(t.systemIndexOrigin($0))" }
        } + s.zones.map { "\($0.origin)" } + s.roles.map { "\($0.origin)" } + s.queries.map { "\($0.origin)" }
    }
    precondition(origins(fast.schema) == origins(schema), "the two paths disagree on origins")
}

runFuzzer(fuzzYAMLLint)
